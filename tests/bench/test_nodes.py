"""The nodes bench's HAProxy configuration, as HAProxy itself reads it: the balancer takes
a node out when its /readyz fails, and keeps /metrics from the world. The whole run (two
nodes, one killed) is tests/integration/test_nodes.py."""

import subprocess

from bench.nodes import Node, Options, haproxy_config, haproxy_path
from tests.conftest import require_service


def two_nodes(tmp_path) -> list[Node]:
    return [Node("node1", "127.0.0.2", 8001, tmp_path), Node("node2", "127.0.0.3", 8001, tmp_path)]


def test_haproxy_accepts_the_configuration_it_is_given(tmp_path):
    require_service("HAProxy", None if haproxy_path() else "haproxy is not installed")
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config(8000, two_nodes(tmp_path)))

    checked = subprocess.run(
        [haproxy_path(), "-c", "-f", str(config)], capture_output=True, text=True, timeout=30
    )

    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_balancer_checks_readiness_and_hides_the_metrics(tmp_path):
    config = haproxy_config(8000, two_nodes(tmp_path))

    assert "option httpchk GET /readyz" in config
    assert "server node1 127.0.0.2:8001 check" in config
    assert "server node2 127.0.0.3:8001 check" in config
    assert "timeout tunnel" in config  # sockets outlive the HTTP timeouts
    assert "http-request deny deny_status 404 if { path /metrics }" in config


def test_its_options_go_to_the_child_as_flags_and_back():
    options = Options(tables=3, seconds=9, think=0.5, workers=1, moves=6, json=True)

    assert Options.from_flags(options.as_flags()) == options
