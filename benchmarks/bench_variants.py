"""`maester check` of a pack of many variants: the time grows with the number of variants, linearly.

Writes a pack of N variants (each patches one field of one house, as a balance variant does) into a temporary
folder, then times `maester check --pack PACK` as a whole process for each N given, with the bundle cache off
(every run compiles and checks everything) and prints seconds per run and per variant.

    python benchmarks/bench_variants.py                  # 100 and 1000 variants
    python benchmarks/bench_variants.py --variants 10 100 1000 2000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_pack(folder: Path, n: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "variants.mst").write_text("\n".join(
        f'variant v{i:04} "V {i}" {{\n  description "Arryn holds {10 + i % 10} power."\n  game mother-of-dragons\n'
        f"  patch house arryn {{ power-tokens {10 + i % 10} }}\n}}\n" for i in range(n)), encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variants", type=int, nargs="+", default=[100, 1000], help="pack sizes (default 100 1000)")
    args = p.parse_args(argv)
    env = {**os.environ, "MAESTER_NO_CACHE": "1"}
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.variants:
            pack = write_pack(Path(tmp) / f"pack-{n}", n)
            start = time.perf_counter()
            run = subprocess.run([sys.executable, "-m", "maester.tools.cli", "check", "-q", "--pack", str(pack)],
                                 capture_output=True, text=True, env=env)
            took = time.perf_counter() - start
            if run.returncode != 0:
                raise SystemExit(f"check of {n} variants failed:\n{run.stderr}")
            result[n] = took
            print(f"{n:6d} variants: {took:6.2f} s   {took / n * 1000:7.2f} ms per variant")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
