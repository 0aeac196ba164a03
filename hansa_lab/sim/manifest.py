"""A run's manifest (``manifest.json``): a new one for a run, a session per command, the
progress entry, the configuration compared on resume, extension to more deals and
marking a run complete; the fingerprint of a chunk's games."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from typing import Any

from hansa_lab.sim.backends import Execution
from hansa_lab.sim.experiment import (
    ADDED_FIELDS,
    SEED_RULE,
    UNRECORDED_FIELDS,
    Design,
    Experiment,
    jsonable,
)
from hansa_lab.sim.provenance import git_info, machine_info, package_versions
from hansa_lab.sim.store import (
    ResultStore,
    canonical_hash,
    design_hash,
    now,
)

FORMAT = "hansa-lab results v1"


def config_diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The fields in which a stored configuration ``old`` and a new one differ (a field
    added since ``old`` was stored counts as its default, or is not compared)."""
    old = {**{k: v for k, v in ADDED_FIELDS.items() if k not in old}, **old}
    keys = sorted((set(old) | set(new)) - {k for k in UNRECORDED_FIELDS if k not in old})
    return [k for k in keys if jsonable(old.get(k)) != jsonable(new.get(k))]


def strategy_changes(old: Mapping[str, Any] | None,
                     new: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What the players of a stored run (its manifest's ``strategies``) played with that the
    same specs play with now: ``"learned: temperature 0 then, 0.05 now"``. A spec keeps
    its text when a default changes, so a resume must compare every parameter's value, not
    the spec. A parameter recorded on one side only differs too. An older manifest without
    the record is not compared (an empty list)."""
    if not old:
        return []
    out = []
    for spec, now_played in new.items():
        then = (old.get(spec) or {}).get("params")
        if then is None:
            continue
        now = now_played.get("params") or {}
        for key in sorted(set(then) | set(now)):
            if key in then and key in now and jsonable(then[key]) == jsonable(now[key]):
                continue
            was = repr(then[key]) if key in then else "not a parameter"
            is_ = repr(now[key]) if key in now else "not a parameter"
            out.append(f"{spec}: {key} {was} then, {is_} now")
    return out


def specs_hash(design: Design, chunk: int) -> str:
    """The fingerprint of the games of a chunk (ids, arms, seeds, rotations, line-ups and
    configurations), recorded in its done-marker: a resume keeps a chunk only while the
    design still holds the same games there."""
    return canonical_hash([
        [g.game_id, g.arm, g.seed, g.rotation, list(g.lineup), g.config.n_players,
         g.config.board, g.config.edition, [list(o) for o in g.config.options]]
        for g in design.chunk(chunk)])


def extend_manifest(manifest: dict[str, Any], exp: Experiment, design: Design, store: ResultStore,
                    done: dict[int, dict[str, Any]]) -> None:
    """Turn a stored run into the larger design ``design`` (more deals): the manifest takes
    the new configuration, design and fingerprint (status "extending"); :func:`_stamp`
    then gives every kept done-marker the new fingerprint. Killed in between, the same
    command stamps the rest (a chunk's games are checked by its specs hash, not the
    stamp)."""
    manifest["configuration"] = exp.configuration()
    manifest["design"] = design.summary()
    manifest["design_hash"] = design_hash(manifest["configuration"], manifest["design"])
    manifest["seeds"] = {**manifest.get("seeds", {}), "per_condition": [
        c["seeds"] for c in manifest["design"]["conditions"]]}
    manifest["status"] = "extending"
    manifest["progress"] = progress_entry(design, done)
    store.write_manifest(manifest)


def progress_entry(design: Design, done: Mapping[int, Mapping[str, Any]]) -> dict[str, int]:
    """The manifest's progress entry for the chunks in ``done``."""
    return {
        "chunks_done": len(done), "n_chunks": design.n_chunks,
        "games_done": sum(len(design.chunk_ids(i)) for i in done),
        "total_games": design.n_games,
        "failures": sum(int(m.get("failures", 0)) for m in done.values()),
    }


def mark_complete(manifest: dict[str, Any], design: Design,
                  done: Mapping[int, Mapping[str, Any]], store: ResultStore) -> None:
    """Record as complete a run whose every chunk is done (its last session was killed
    before it could say so)."""
    for session in manifest.get("sessions", []):
        if isinstance(session, dict) and session.get("status") == "running":
            session["status"] = "killed"
    manifest["status"] = "complete"
    manifest["progress"] = progress_entry(design, done)
    manifest["finished"] = manifest.get("finished") or now()
    store.write_manifest(manifest)


def new_manifest(exp: Experiment, design: Design, store: ResultStore | None,
                 source: dict[str, Any] | None, session: dict[str, Any]) -> dict[str, Any]:
    d = design.summary()
    versions = session["versions"]
    configuration = exp.configuration()
    return {
        "format": FORMAT,
        "name": exp.name,
        "description": exp.description,
        "status": "new",
        "package": "hansa-lab",
        "version": versions["hansa-lab"],
        "versions": versions,
        "git_commit": session["git_commit"],
        "git_dirty": session["git_dirty"],
        "configuration": configuration,
        "design": d,
        # the fingerprint of both (checked by every command that opens the folder)
        "design_hash": design_hash(configuration, d),
        "seeds": {
            "base": exp.seed,
            "rule": SEED_RULE,
            "per_condition": [c["seeds"] for c in d["conditions"]],
        },
        "source": source,
        # what every strategy spec of the arms plays (so a run that used a strategy file
        # is reproducible even after the file changes)
        "strategies": exp.strategies(),
        "started": now(),
        "finished": None,
        "machine": machine_info(),
        "path": str(store.path) if store else None,
        "sessions": [],
        "progress": {},
    }


def new_session(ex: Execution) -> dict[str, Any]:
    git = git_info()
    versions = package_versions()
    return {
        "started": now(), "finished": None, "status": "running", "pid": os.getpid(),
        "host": socket.gethostname(), "version": versions["hansa-lab"], "versions": versions,
        "git_commit": git["commit"], "git_dirty": git["dirty"],
        "execution": {
            "n_jobs": ex.n_jobs, "backend": ex.backend, "fail_fast": ex.fail_fast,
            "decision_time_limit": ex.decision_time_limit, "engine": ex.engine,
            "dask_address": ex.dask_address if isinstance(ex.dask_address, str | None)
            else repr(ex.dask_address),
        },
        "chunks_run": 0, "games_run": 0, "failures": 0,
    }
