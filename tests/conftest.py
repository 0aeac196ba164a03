"""Set-up shared by the test modules.

The position helpers of the rule and scoring tests are plain functions in
``tests/helpers.py`` (``from helpers import position, settle, ...``; see its docstring
for the two ways of building a position). Several of them check with ``assert``
(:func:`helpers.play`, :func:`helpers.illegal`, ...): registering the module for
pytest's assertion rewriting makes a failing check inside a helper show its values,
as a check in a test does.
"""

from pathlib import Path

import pytest

pytest.register_assert_rewrite("helpers")


#: Tests of the default tier that ``make check`` leaves to ``make test``: the test
#: functions whose runs (every parametrisation, with their fixtures' set-up) took 6 s or
#: more in all in ``pytest -n 2 --durations=0`` on a shared, busy machine (about 2.5 s of
#: CPU or more idle), so the check before a commit stays under 3 minutes; the docstring
#: examples, goldens, perft counts and parameter ranges stay in it (many cheap cases).
#: Marked ``heavy`` by module and test name; a name that no longer exists in a collected
#: module is an error, so the list cannot go stale silently.
HEAVY: dict[str, tuple[str, ...]] = {
    "test_analysis.py": (
        "test_sequential_error_rate_near_alpha",
    ),
    "test_answers.py": (
        "test_the_wording_corpus_is_large_enough_to_mean_something",
    ),
    "test_archetypes.py": (
        "test_an_archetype_plays_in_the_core_as_greedy_with_its_weights",
        "test_each_archetype_follows_its_plan_more_than_greedy",
    ),
    "test_bad_inputs.py": (
        "test_the_console_script_prints_no_traceback",
    ),
    "test_bad_inputs_cli.py": (
        "test_sigterm_on_a_long_command_says_its_work_is_saved",
    ),
    "test_bad_inputs_positions.py": (
        "test_the_readers_agree_on_mutations_of_real_positions",
    ),
    "test_bad_inputs_runs.py": (
        "test_a_folder_left_by_a_killed_start_is_resumed_and_cleaned",
        "test_a_kill_while_the_first_manifest_is_written_resumes",
        "test_a_resume_after_a_changed_input_is_refused_and_force_replays",
        "test_replay_of_a_game_in_a_damaged_chunk_names_the_file",
    ),
    "test_command_reliability.py": (
        "test_tune_saves_and_says_so_on_sigterm",
    ),
    "test_compare.py": (
        "test_the_command_ends_with_the_answer_the_report_and_the_csv",
        "test_until_decided_plays_in_rounds_and_splits_the_error_over_the_looks",
    ),
    "test_conformance.py": (
        "test_every_legal_action_applies",
        "test_random_play_invariants",
        "test_variant_random_play_invariants",
    ),
    "test_core.py": (
        "test_parity_fast_tier",
    ),
    "test_core_fuzz.py": (
        "test_random_arguments_to_every_binding_neither_abort_nor_escape_exception",
    ),
    "test_core_strategies.py": (
        "test_a_what_if_from_the_middle_of_a_game_is_the_same_in_the_core",
        "test_changed_parameters_decide_as_in_python",
        "test_the_core_builds_the_same_log_rows",
        "test_the_core_strategies_decide_as_in_python",
        "test_the_plan_weights_decide_as_in_python",
        "test_the_runner_gives_the_same_tables_with_either_engine",
    ),
    "test_declared_once.py": (
        "test_the_logs_numpy_scoring_is_the_engines",
    ),
    "test_figure_legibility.py": (
        "test_fits_a_notebook_output",
    ),
    "test_export.py": (
        "test_report_csv_figures_writes_them_for_an_existing_run",
    ),
    "test_learn.py": (
        "test_a_hidden_layer_runs_alike_in_the_core_the_trainer_and_python",
        "test_a_hidden_layer_model_file_plays_in_both_engines",
        "test_learn_command_writes_a_model_the_player_loads",
    ),
    "test_learn_events.py": (
        "test_develop_events_name_the_ability_city_in_both_engines",
    ),
    "test_logs.py": (
        "test_the_events_frame_shows_none_as_na_and_both_engines_agree",
    ),
    "test_mcts.py": (
        "test_deterministic_for_a_seed_and_iterations",
        "test_returns_a_legal_action_and_never_mutates",
    ),
    "test_options.py": (
        "test_core_strategies_decide_as_in_python_with_tuned_numbers",
    ),
    "test_plots.py": (
        "test_seat_advantage_is_a_grid_of_player_counts_by_population",
    ),
    "test_populations.py": (
        "test_a_small_study_side_by_side_and_resumed",
    ),
    "test_position.py": (
        "test_positions_round_trip_in_both_engines_and_across",
    ),
    "test_progress.py": (
        "test_long_commands_show_a_bar_with_the_time_left_on_stderr",
    ),
    "test_results_folder.py": (
        "test_a_corrupt_manifest_is_reported_and_force_recovers",
        "test_racing_processes_never_hold_the_lock_together",
    ),
    "test_retrain.py": (
        "test_a_cached_model_is_reused_without_a_game",
        "test_the_retrained_model_loads_records_its_training_and_plays",
        "test_the_warm_start_pulls_toward_the_printed_weights",
        "test_compare_retrain_end_to_end_writes_and_prints_the_sentence",
    ),
    "test_rollout.py": (
        "test_rollout_plays_the_same_game_in_both_engines",
    ),
    "test_runner.py": (
        "test_console_script",
        "test_main_job_runs_the_tips_experiment_forced",
        "test_serial_and_loky_give_the_same_tables",
    ),
    "test_skill_balance.py": (
        "test_compare_ladder_plays_every_rung_and_states_each_variant",
    ),
    "test_strategy_isolation.py": (
        "test_the_package_strategies_never_change_the_state_they_are_shown",
    ),
    "test_strong.py": (
        "test_strong_and_strong_v1_beat_greedy",
    ),
    "test_tips_everywhere.py": (
        "test_actions_first_makes_a_searching_player_develop_actions_further",
        "test_the_main_job_answers_each_tip_among_greedy_and_strong_players",
    ),
    "test_verdicts.py": (
        "test_paired_interval_covers_the_true_effect_as_claimed",
        "test_the_coverage_check_can_fail_a_too_narrow_interval",
        "test_verdicts_never_overstate_under_no_effect",
    ),
    "test_workflow.py": (
        "test_main_names_its_report_and_the_next_command",
    ),
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "heavy: a default-tier test make check leaves to make "
                                       "test (tests/conftest.py HEAVY)")
    absent = [m for m in HEAVY if not (Path(__file__).parent / m).is_file()]
    if absent:
        raise pytest.UsageError(f"tests/conftest.py HEAVY names no test module: {absent}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the :data:`HEAVY` tests ``heavy``; a listed name missing from its collected
    module stops the run."""
    checked: set[str] = set()
    for item in items:
        module = item.path.name
        names = HEAVY.get(module, ())
        if module not in checked and isinstance(item, pytest.Function):
            checked.add(module)
            missing = [n for n in names if not hasattr(item.module, n)]
            if missing:
                raise pytest.UsageError(
                    f"tests/conftest.py HEAVY names no test of {module}: {missing}")
        if getattr(item, "originalname", item.name) in names:
            item.add_marker(pytest.mark.heavy)
