"""The live benchmarks serve the site as the Procfile does: the same websocket options."""

from bench._harness import ROOT, uvicorn


def test_the_benchmarks_uvicorn_takes_the_procfiles_websocket_options():
    web = next(
        line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:")
    )
    command = uvicorn(8000, 4)

    assert "--ws-per-message-deflate=false" in command
    assert "--ws-ping-interval=60" in command
    assert "--ws-per-message-deflate false" in web and "--ws-ping-interval 60" in web
