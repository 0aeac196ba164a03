"""Commands that look at one thing: a game played now (``play``), the replay of a game as
offline HTML (``replay``), a run's report (``report``) and the rule options (``options``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hansa_lab.tools.commands.common import (
    CliError,
    add_deal_args,
    game_config,
    lineup,
    played,
    positive_int,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands


def cmd_play(args: argparse.Namespace) -> int:
    from hansa_lab.play import GameRecord, play_game

    config = game_config(args, args.seed)
    strategies = lineup(args.strategies, config.n_players)
    rec = played(lambda: play_game(config, strategies, engine=args.engine, check=args.check))
    assert isinstance(rec, GameRecord)
    result = rec.result()
    if args.actions:
        result["actions"] = rec.action_texts()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"{result['board']} {config.n_players}p seed {config.seed}: "
              f"{result['end_reason']} after {result['n_actions']} actions, "
              f"{result['n_turns']} turns")
        for pl in result["players"]:
            parts = " ".join(f"{k}={v}" for k, v in pl["breakdown"].items())
            print(f"  seat {pl['seat']} {pl['strategy']:<12} rank {pl['rank']} "
                  f"total {pl['total']:>3}  ({parts})")
    return 0


def add_play(sub: Subcommands) -> None:
    p = sub.add_parser("play", help="play one game and print its result")
    add_deal_args(p, players_required=True, seed_default=0, seed_help=None,
                  strategies_help="comma-separated, one per seat")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--actions", action="store_true", help="include the action texts")
    p.add_argument("--check", action="store_true", help="run the invariant checker")
    p.add_argument("--engine", choices=("core", "python"), default="core",
                   help="rules engine: the compiled core (default) or the Python engine; "
                        "both print the same result")
    p.set_defaults(func=cmd_play)


def cmd_options(args: argparse.Namespace) -> int:
    from hansa_lab.engine.options import options_markdown, options_text

    sys.stdout.write(options_markdown() if args.markdown else options_text())
    return 0


def add_options(sub: Subcommands) -> None:
    p = sub.add_parser("options", help="the rule options: default, allowed values, effect")
    p.add_argument("--markdown", action="store_true",
                   help="as the Markdown table of docs/rule_options.md")
    p.set_defaults(func=cmd_options)


def _replay_of_results(args: argparse.Namespace) -> tuple[Any, Path, str]:
    """``replay RESULTS --game ID``: the timeline of a logged game (replayed from its
    configuration, seed and line-up), the HTML file to write and a title."""
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.model_files import changed_models
    from hansa_lab.sim.results import open_results
    from hansa_lab.viz.timeline import Timeline
    from hansa_lab.viz.viewer import record_from_results

    if args.game is None:
        raise CliError("--game: give the id of the game to replay (the game_id column of "
                       "the run's games table)")
    for flag, value in (("--players", args.players), ("--seed", args.seed),
                        ("--strategies", args.strategies)):
        if value is not None:
            raise CliError(f"{flag}: a game of a results folder is replayed from its own "
                           "configuration; leave it out")
    try:
        res = open_results(args.results)
    except (FileNotFoundError, ExperimentError) as e:  # no manifest; unreadable or edited
        raise CliError(f"RESULTS: {e}") from e
    changed = changed_models(res.manifest.get("configuration", {}).get("model_files"))
    if changed:
        raise CliError(f"RESULTS: {args.results} was played with model file(s) "
                       f"{', '.join(changed)} that are missing or changed since: a replay "
                       "would not be the game played; restore the file(s)")
    try:
        found = played(lambda: record_from_results(
            res, args.game, arm=args.arm, experiment=args.experiment))
    except KeyError as e:
        raise CliError(f"--game: {e.args[0]} in {args.results}{_why_missing(res, args.game)}") \
            from e
    except ValueError as e:  # a strategy of the game's line-up that cannot be built now
        raise CliError(f"--game: game {args.game} of {args.results} cannot be replayed: {e}") \
            from e
    assert isinstance(found, tuple)
    record, title = found
    html = Path(args.html) if args.html else Path(args.results) / f"replay_game{args.game}.html"
    return Timeline.from_record(record), html, args.title or title


def _why_missing(res: Any, game: int) -> str:
    """Why game ``game`` is not in the tables of ``res``: the chunk holding it is left out
    (its files are damaged: the reason names the file) or not played yet ("" otherwise)."""
    size = res.manifest.get("design", {}).get("chunk_size")
    total = res.completeness.total_games
    if not isinstance(size, int) or not 0 <= game < total:
        return f" (the run has game ids 0-{total - 1})" if total else ""
    chunk = game // size
    if chunk in res.bad_chunks:
        return (f": it is in chunk {chunk}, left out as damaged ({res.bad_chunks[chunk]}); "
                "run the run's command again to replay that chunk")
    if chunk not in res.chunks:
        return (f": it is in chunk {chunk}, not played yet ({res.completeness.text()}); run "
                "the run's command again to finish it")
    return ""


def cmd_replay(args: argparse.Namespace) -> int:
    """Write the replay of one game as one self-contained, offline HTML file: a game of a
    results folder (``RESULTS --game ID``) or one played from ``--players``/``--seed``."""
    from hansa_lab.viz.export import export_replay
    from hansa_lab.viz.timeline import Timeline

    if args.results is not None:
        timeline, html, title = _replay_of_results(args)
        config = timeline.config
    else:
        if args.game is not None or args.arm is not None or args.experiment is not None:
            raise CliError("--game/--arm/--experiment: give the results folder first "
                           "(hansa-lab replay RESULTS --game ID)")
        if args.players is None:
            raise CliError("--players: give the player count (or a results folder and "
                           "--game ID)")
        if args.html is None:
            raise CliError("--html: give the file to write")
        config = game_config(args, args.seed or 0)
        seats = lineup(args.strategies, config.n_players)
        timeline_now = played(lambda: Timeline.from_seed(config, seats))
        assert isinstance(timeline_now, Timeline)
        timeline, html, title = timeline_now, Path(args.html), args.title
    html = Path(html)
    if html.is_dir():
        raise CliError(f"--html: {html} is a directory; give the file to write")
    blocking = next((p for p in html.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise CliError(f"--html: cannot write {html}: {blocking} is a file")
    try:
        out = export_replay(html, timeline, title=title)
    except OSError as e:
        raise CliError(f"--html: cannot write {html}: {e.strerror or e}") from None
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB): {config.side} "
          f"{config.n_players}p seed {config.seed}, {len(timeline.actions)} actions, "
          f"ended by {timeline.final.end_reason or 'cap'}")
    return 0


def add_replay(sub: Subcommands) -> None:
    p = sub.add_parser("replay", help="export the replay of a game of a results folder "
                       "(RESULTS --game ID), or of one game played now, as offline HTML")
    p.add_argument("results", metavar="RESULTS", nargs="?", default=None,
                   help="a results folder (results/NAME): replay its game --game ID")
    p.add_argument("--game", type=positive_int("--game", least=0), default=None, metavar="ID",
                   help="with RESULTS: the game's id (the game_id column of its games table)")
    p.add_argument("--arm", default=None, help="with RESULTS: the arm, if ids repeat")
    p.add_argument("--experiment", default=None,
                   help="with RESULTS: the experiment, if ids repeat")
    add_deal_args(p, players_required=False, seed_default=None,
                  seed_help="without RESULTS: the seed (0)",
                  strategies_help="without RESULTS: comma-separated, one per seat or one "
                                  "for all (default random)")
    p.add_argument("--html", default=None, metavar="OUT.html",
                   help="the HTML file to write (self-contained, works offline; default "
                        "with RESULTS: RESULTS/replay_gameID.html)")
    p.add_argument("--title", default=None, help="heading of the page")
    p.set_defaults(func=cmd_replay)


def cmd_report(args: argparse.Namespace) -> int:
    """Write a run's report (tables, verdicts, figures, methods) as one offline HTML page;
    ``--csv``: its answers and tables as CSV files, ``--figures``: its figures as PNG and
    SVG files, in the run's folder."""
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.exports import export_run
    from hansa_lab.sim.paths import output_file, output_folder, user_path
    from hansa_lab.sim.results import open_results
    from hansa_lab.viz.report import write_report

    try:
        folder = user_path(args.results, "RESULTS")
    except ExperimentError as e:
        raise CliError(str(e)) from e
    try:
        res = open_results(folder)
    except (FileNotFoundError, ExperimentError) as e:  # no manifest; unreadable or edited
        raise CliError(f"RESULTS: {e}") from e
    try:
        target = output_file(args.html if args.html else folder / "report.html", "--html")
        # checked before anything is written: a file where a folder goes, no write access
        figures = output_folder(folder / "figures", "--figures") if args.figures else None
        if args.csv:
            output_folder(folder / "tables", "--csv")
    except ExperimentError as e:
        raise CliError(str(e)) from e
    try:
        out = write_report(res, target, title=args.title, figures_folder=figures)
    except OSError as e:
        failed = Path(e.filename) if e.filename else target
        field = "--figures" if figures is not None and failed.parent == figures else "--html"
        raise CliError(f"{field}: cannot write {failed}: {e.strerror or e}") from e
    exported = None
    if args.csv:
        try:
            exported = export_run(res, folder, csv=True, figures=False)
        except OSError as e:
            raise CliError(f"--csv: cannot write {e.filename or folder}: {e.strerror or e}") \
                from e
    print(res.report())
    print(f"\nwrote {out}")
    if figures is not None:
        print(f"wrote the report's figures as PNG and SVG in {figures}")
    if exported is not None:
        print(exported.text())
    return 0


def add_report(sub: Subcommands) -> None:
    p = sub.add_parser("report", help="a run's tables, verdicts and figures as offline HTML "
                       "(--csv, --figures: also as CSV, PNG and SVG files)")
    p.add_argument("results", metavar="RESULTS", help="a results folder (results/NAME)")
    p.add_argument("--html", default=None, metavar="OUT.html",
                   help="the HTML file to write (default RESULTS/report.html)")
    p.add_argument("--title", default=None, help="heading of the page")
    p.add_argument("--csv", action="store_true",
                   help="also write RESULTS/answers.csv (one row per question answered) and "
                        "the report's tables as RESULTS/tables/NAME.csv, for spreadsheets")
    p.add_argument("--figures", action="store_true",
                   help="also write the report's figures as RESULTS/figures/NAME.png and "
                        ".svg, for slides")
    p.set_defaults(func=cmd_report)
