"""How fast the language server answers an edit: from a `didChange` to the diagnostics of that version.

Starts `maester lsp` as an editor would (a subprocess speaking JSON-RPC on stdin/stdout), opens one bundled
content file (by default the largest, setups/mother-of-dragons.mst), waits for its first diagnostics, then
sends `--edits` changes of the whole document, each typing new text into it (so no edit finds its file's text
in the parse cache, as when a person types): alternately a new line that is not a declaration (`bogus-N`, one
error expected) and a new comment (`# typed N`, no error), each after a short pause, and times each change
until `publishDiagnostics` for that very version arrives. A wrong answer (not the expected diagnostics) stops
the benchmark. With `--inside` each edit types into a declaration instead (new words in the first quoted name
of the file, e.g. a setup's name: no error expected), which changes what the content declares.

    python benchmarks/bench_lsp.py                          # 20 edits of setups/mother-of-dragons.mst
    python benchmarks/bench_lsp.py --inside                 # the same, typing inside a declaration
    python benchmarks/bench_lsp.py --edits 100 --file cards/base/stark.mst
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from maester.dsl.compile import default_content_dir
from maester.tools.lsp_client import NoAnswer, ServerStopped, StdioClient

GOAL_MS = 150


def _first_declared_name(text: str) -> int:
    """Where the first quoted name of a declaration starts (the first quote on a line that is no comment)."""
    at = 0
    for line in text.splitlines(keepends=True):
        if not line.lstrip().startswith("#") and '"' in line:
            return at + line.index('"') + 1
        at += len(line)
    raise SystemExit("the file declares no quoted name to type into")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--edits", type=int, default=20, help="changes to time (default 20)")
    p.add_argument("--file", default="setups/mother-of-dragons.mst",
                   help="bundled file to edit (default %(default)s, the largest)")
    p.add_argument("--pause", type=float, default=0.3, help="seconds between edits (default 0.3)")
    p.add_argument("--inside", action="store_true",
                   help="type into a declaration (the first quoted name of the file) instead of new lines")
    return p.parse_args(argv)


class Client(StdioClient):
    """The benchmark's client: a silent or stopped server stops the benchmark."""

    def wait_for(self, predicate, timeout: float = 60) -> tuple[float, dict]:
        try:
            return super().wait_for(predicate, timeout)
        except NoAnswer:
            raise SystemExit("the language server did not answer in time") from None
        except ServerStopped as e:
            raise SystemExit(f"the language server stopped: {e}") from None


def _diagnostics_of(uri: str, version: int):
    return lambda m: (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                      and m["params"].get("version") == version)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    if args.edits < 1:
        raise SystemExit("--edits must be at least 1")
    path = default_content_dir() / args.file
    if not path.is_file():
        raise SystemExit(f"no bundled file {args.file}")
    good = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    client = Client(cwd=Path.cwd())
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
        client.send({"method": "initialized", "params": {}})
        sent = client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "maester", "version": 1, "text": good}}})
        arrived, _ = client.wait_for(_diagnostics_of(uri, 1), timeout=120)
        first_ms = (arrived - sent) * 1000
        times: list[float] = []
        for i in range(args.edits):
            version = i + 2
            # new text at every edit: a file the parse cache has never seen, as when a person types
            if args.inside:  # new words in a declaration's name: the declaration changes, no error
                quote = _first_declared_name(good)
                text, expected = good[:quote] + f"typed {i} " + good[quote:], []
            else:
                text, expected = ((good + f"\n# typed {i}\nbogus-{i}\n", ["unknown-kind"]) if i % 2 == 0
                                  else (good + f"\n# typed {i}\n", []))
            time.sleep(args.pause)
            sent = client.send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}})
            arrived, message = client.wait_for(_diagnostics_of(uri, version))
            got = [d.get("code") for d in message["params"]["diagnostics"]]
            if got != expected:
                raise SystemExit(f"edit {i + 1}: expected diagnostics {expected}, got {got}")
            times.append((arrived - sent) * 1000)
    finally:
        client.close()
    ordered = sorted(times)
    result = {
        "file": args.file, "edits": args.edits, "inside": args.inside, "first_ms": first_ms,
        "median_ms": statistics.median(times), "p90_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))],
        "max_ms": ordered[-1], "within_goal": sum(t <= GOAL_MS for t in times),
    }
    print(f"language server, {args.edits} edits of {args.file} (each new text"
          f"{', typed inside a declaration' if args.inside else ''}, sent as a whole-document change "
          f"after {args.pause:.1f} s idle), time to the diagnostics of that version")
    print(f"  first diagnostics after opening: {first_ms:7.0f} ms")
    print(f"  median                         : {result['median_ms']:7.0f} ms")
    print(f"  90th percentile                : {result['p90_ms']:7.0f} ms")
    print(f"  slowest                        : {result['max_ms']:7.0f} ms")
    print(f"  within {GOAL_MS} ms                  : {result['within_goal']}/{args.edits}")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
