"""The queue lab's leniency model (grader/machinery/leniency.py): the ways a correct student may
write each artefact, each with the submissions that show the grader accepts it."""

from __future__ import annotations

from grader.machinery.leniency import Leniency

LENIENCY = Leniency()
way = LENIENCY.way

way(
    "consume.py",
    "claims with os.rename, Path.rename or shutil.move",
    "variant reference",
    "variant integrity_error_unique_index_by_hand",
    "variant or_ignore_surrogate_key_writes_own_files",
)
way(
    "consume.py",
    "claims with a hard link into processing/, then removes the inbox name (Maildir)",
    "variant claims_by_hard_link",
)
way(
    "consume.py",
    "claims into a subfolder of processing/ of its own, removed when it ends",
    "variant claims_into_its_own_subfolder",
    "population qb-conc_per_worker_processing_subdirs",
)
way(
    "consume.py",
    "removes and makes processing/ again when it starts",
    "variant makes_processing_again_at_start",
)
way(
    "consume.py",
    "de-duplicates by ON CONFLICT DO NOTHING, INSERT OR IGNORE with rowcount, or a plain "
    "INSERT whose IntegrityError means a duplicate; PRIMARY KEY, a table constraint, a UNIQUE "
    "index or a surrogate key with msg_id UNIQUE",
    "variant reference",
    "variant or_ignore_surrogate_key_writes_own_files",
    "variant integrity_error_unique_index_by_hand",
    "variant begin_immediate_changes_appends_files",
)
way(
    "consume.py",
    "an autocommit connection with BEGIN IMMEDIATE, batches of files in one transaction",
    "variant begin_immediate_changes_appends_files",
    "population qk-batch-sqlcli",
)
way(
    "consume.py",
    "switches the ledger to WAL",
    "variant consumer_switches_the_ledger_to_wal",
    "population qa-java_threadpool_wal_argparse_python_lag",
)
way(
    "consume.py",
    "threads or processes of its own, one connection each",
    "population qa-java_threadpool_wal_argparse_python_lag",
    "population qd-par_process_pool_rescan_default_processed_at_python_lag",
    "population qk-threadpool-crlf",
)
way(
    "consume.py",
    "takes files in any order (name order, its reverse, the directory's, random), "
    "lists inbox/ again until it is empty",
    "variant or_ignore_surrogate_key_writes_own_files",
    "population qc-random_order_unique_index_errors_table_csv_export_bom_sql",
    "population qk-korean-bom",
)
way(
    "consume.py",
    "processed_at as ISO text, epoch seconds or a column DEFAULT",
    "variant reference",
    "variant or_ignore_surrogate_key_writes_own_files",
    "population qa-beginner_while_loop_csv_module_crlf_epoch",
)
way(
    "consume.py",
    "extra columns (NOT NULL ones too), tables, views and indexes in the ledger",
    "variant order_check_reads_its_own_view",
    "population qe-overeng_ini_threads_extra_tables_cols_report",
)
way(
    "consume.py",
    "writes dup.txt and error.csv itself, or leaves them to be written by hand",
    "variant or_ignore_surrogate_key_writes_own_files",
    "variant integrity_error_unique_index_by_hand",
)
way(
    "schema.csv",
    "type words of SQL, Python, JSON, Java or Korean, in any letter case",
    "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
    "population qa-sysadmin_posix_sh_korean_types_recursive_cte",
    "population qk-dataclass-pathlib",
)
way(
    "schema.csv",
    "UTF-8 with a BOM, CRLF line ends, quoted or spaced cells, no final newline",
    "variant reports_with_bom_and_crlf",
    "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
)
way(
    "dup.txt, error.csv, order-result.txt",
    "UTF-8 with a BOM, CRLF line ends, blank lines, paths in error.csv's file column",
    "variant reports_with_bom_and_crlf",
    "variant integrity_error_unique_index_by_hand",
    "tests/test_queue_checks.py::test_error_csv",
)
way(
    "order-check.sql",
    "window functions (LAG), NOT EXISTS, aggregates against MAX(seq), "
    "recursive CTEs, a view of the student's own",
    "variant reference",
    "variant order_check_not_exists",
    "variant order_check_count_against_max",
    "variant order_check_reads_its_own_view",
    "population qa-sysadmin_posix_sh_korean_types_recursive_cte",
)
way(
    "order-check.sql",
    "sqlite3 dot-commands, comments, a BOM, CRLF, no final semicolon",
    "variant or_ignore_surrogate_key_writes_own_files",
    "variant reports_with_bom_and_crlf",
)
way(
    "lag.sh, replay.sh",
    "bash, POSIX sh or dash; options on the #! line (#!/bin/bash -e)",
    "variant reference",
    "variant replay_relies_on_its_first_lines_e",
    "population qf-posixsh-dash-scripts",
)
way(
    "lag.sh, replay.sh",
    "Python behind a #! line (python or python3 through env)",
    "variant lag_and_replay_written_in_python",
    "population qk-dataclass-pathlib",
)
way("lag.sh, replay.sh", "printing through /dev/stdout and /dev/stderr", "variant prints_through_dev_stdout")
way(
    "lag.sh",
    "counting with find -maxdepth 1 -type f, a glob loop, or Python; any non-zero exit above the threshold",
    "variant reference",
    "variant lag_and_replay_written_in_python",
    "population qd-oldunix_printf_count_lag_tablelevel_unique_notexists_sql",
)
