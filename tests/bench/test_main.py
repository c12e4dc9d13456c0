"""`python -m bench` runs only benchmarks it knows, and says so before running any."""

from bench.__main__ import BENCHMARKS, main


def test_a_name_it_does_not_know_stops_it_before_any_benchmark_runs(capsys):
    # `peers --tables 5` once ran every figure of peers (23 minutes) before failing.
    assert main(["peers", "--tables", "5"]) == 2
    captured = capsys.readouterr()
    assert "no benchmark named '--tables'" in captured.err
    assert "== peers ==" not in captured.out


def test_help_lists_the_benchmarks_and_runs_none(capsys):
    assert main(["peers", "--help"]) == 0
    shown = capsys.readouterr().out
    assert all(name in shown for name in BENCHMARKS)
    assert "==" not in shown


def test_a_bare_run_leaves_out_the_benchmarks_run_only_on_request(monkeypatch):
    # `make bench` runs `python -m bench`: nodes needs HAProxy (and root to install it).
    ran = []
    monkeypatch.setattr("bench.__main__.run", lambda names, options=None: ran.extend(names))

    main([])

    assert "nodes" in BENCHMARKS
    assert "nodes" not in ran
    assert "peers" in ran
