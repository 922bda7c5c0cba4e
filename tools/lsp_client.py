"""A small client of `maester lsp` over its stdin and stdout, for the tests, the benchmarks and the fuzzing campaign.

The protocol is JSON-RPC in `Content-Length` frames. One reader thread puts every message the server sends on a
queue with the moment it arrived (`time.perf_counter`), so a caller can time answers and wait for the one it wants.
The callers decide what a silence or a stopped server means to them (a failed test, a benchmark that stops, a
fuzzing finding): `wait_for` raises `NoAnswer` or `ServerStopped`.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path


class NoAnswer(Exception):
    """The server sent nothing that was waited for in time."""


class ServerStopped(Exception):
    """The server closed its output (it exited)."""


def server_command() -> list[str]:
    """`maester lsp` of this very environment (its console script, else the module)."""
    script = Path(sys.executable).with_name("maester")
    if script.exists():
        return [str(script), "lsp"]
    return [sys.executable, "-m", "maester.tools.cli", "lsp"]


class StdioClient:
    """A `maester lsp` process and the messages it sends."""

    def __init__(self, cwd: Path | None = None, command: list[str] | None = None, env: dict | None = None,
                 stderr=subprocess.PIPE):
        self.proc = subprocess.Popen(command or server_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, cwd=cwd, env=env)
        self.messages: queue.Queue = queue.Queue()  # (arrival time, message); None once the server stopped
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                if not line.strip():
                    break
                key, _, value = line.decode("ascii", "replace").partition(":")
                headers[key.strip().lower()] = value.strip()
            body = json.loads(stream.read(int(headers["content-length"])))
            self.messages.put((time.perf_counter(), body))

    def send_raw(self, body: bytes) -> float:
        """Send one frame holding `body` as it is; the moment it was sent."""
        sent = time.perf_counter()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return sent

    def send(self, message: dict) -> float:
        """Send a JSON-RPC message (lone surrogates in its text are sent as they are); the moment it was sent."""
        return self.send_raw(json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False)
                             .encode("utf-8", "surrogatepass"))

    def wait_for(self, predicate: Callable[[dict], bool], timeout: float = 60) -> tuple[float, dict]:
        """The first message, from now on, for which `predicate` holds, with the moment it arrived."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise NoAnswer(f"no answer in {timeout:g} s")
            try:
                item = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if item is None:
                self.messages.put(None)  # it stays stopped for the next wait
                raise ServerStopped(self.stderr_text())
            if predicate(item[1]):
                return item

    def request(self, method: str, params, timeout: float = 60) -> dict:
        """Send a request and wait for its whole reply (with `result` or `error`)."""
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        return self.wait_for(lambda m: m.get("id") == ident, timeout)[1]

    def stderr_text(self) -> str:
        if self.proc.stderr is None or self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")

    def close(self, timeout: float = 30) -> None:
        """`shutdown` and `exit` if it still runs; killed if it does not stop."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, timeout=timeout)
                self.send({"method": "exit"})
                self.proc.wait(timeout=timeout)
        except (NoAnswer, ServerStopped, OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)
