"""The ``graphsparse`` command line: ``demo`` (the main job on built-in data) and ``mine``."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

import numpy as np

from . import __version__
from .datasets import (
    GraphDataset,
    _as_response,
    load_tu,
    make_subgraph_classification,
    read_gspan,
)
from .exceptions import GraphSparseError
from .mining import MiningResult, mine_subgraphs

__all__ = ["main"]


def _min_support(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a count (e.g. 20) or a fraction (e.g. 0.1), got {text!r}"
        ) from None


def _load(path: str, labels: str | None) -> GraphDataset:
    if os.path.isdir(path) or path.endswith("_A.txt") or path.endswith("_graph_indicator.txt"):
        ds = load_tu(path)
        if labels is not None:
            ds.y = _as_response(labels, len(ds))
        return ds
    return read_gspan(path, y=labels)


def _print_patterns(result: MiningResult, top: int, out=sys.stdout) -> None:
    if not result:
        return
    ranked = sorted(result, key=lambda p: (-p.support, -p.n_edges))
    width = max(len(str(p.support)) for p in ranked[:top])
    print(f"\n{'support':>{max(width, 7)}}  edges  pattern", file=out)
    for p in ranked[:top]:
        print(f"{p.support:>{max(width, 7)}}  {p.n_edges:>5}  {p}", file=out)
    if len(ranked) > top:
        print(f"... and {len(ranked) - top} more (use --top to show more)", file=out)


def _cmd_mine(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    ds = _load(args.path, args.labels)
    t_read = time.perf_counter() - t0
    result = mine_subgraphs(
        ds,
        args.min_support,
        max_size=args.max_size,
        n_jobs=args.n_jobs,
        single_vertices=args.single_vertices,
        max_nodes=args.max_nodes,
        time_limit=args.time_limit,
    )
    print(f"{args.path}: {ds!r} (read in {t_read:.2f} s)")
    status = "complete" if result.truncated is None else f"STOPPED by {result.truncated} budget"
    print(
        f"{len(result)} frequent connected patterns (min_support={args.min_support}, "
        f"max_size={args.max_size}); {result.nodes_visited} tree nodes; "
        f"{result.seconds:.2f} s; {status}"
    )
    _print_patterns(result, args.top)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            for k, p in enumerate(result):
                fh.write(p.to_gspan().replace("t # 0", f"t # {k} support={p.support}", 1) + "\n")
        print(f"\nwrote {len(result)} patterns to {args.output}")
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from .models import SubgraphLogisticRegression

    print(f"graphsparse {__version__} demo: planted-motif graph classification data")
    t0 = time.perf_counter()
    ds = make_subgraph_classification(n_samples=args.n_samples, random_state=args.seed)
    print(f"generated {ds!r} in {time.perf_counter() - t0:.2f} s (seed {args.seed})")
    n_train = (3 * len(ds)) // 4
    train, test = ds[:n_train], ds[n_train:]
    y = np.asarray(ds.y)
    model = SubgraphLogisticRegression(
        lambda1=args.lambda1,
        max_size=args.max_size,
        min_support=args.min_support,
        n_jobs=args.n_jobs,
    )
    t0 = time.perf_counter()
    model.fit(train, y[:n_train])
    seconds = time.perf_counter() - t0
    visited = sum(h["visited"] for h in model.history_)
    skipped = sum(h["skipped"] for h in model.history_)
    print(
        f"\nL1 logistic regression over all subgraphs (lambda1={args.lambda1}, "
        f"min_support={args.min_support}, max_size={args.max_size}) on {n_train} graphs:"
    )
    print(
        f"  mined the gSpan tree on the fly: {model.n_iter_} BCGD iterations, "
        f"{visited} tree nodes visited ({100.0 * skipped / max(visited, 1):.1f}% skipped as "
        f"duplicate columns), {seconds:.2f} s, converged={model.converged_}"
    )
    print(f"  train accuracy {model.score(train, y[:n_train]):.3f}")
    if len(test):
        print(
            f"  test accuracy  {model.score(test, y[n_train:]):.3f} ({len(test)} held-out graphs)"
        )
    order = np.argsort(-np.abs(model.coef_), kind="stable")
    print(f"\n{len(model.coef_)} selected patterns (largest |coefficient| first):")
    print(f"{'coef':>8} {'support':>7} {'equiv':>5}  pattern")
    for j in order[: args.top]:
        p = model.patterns_[j]
        n_eq = len(model.equivalent_patterns_[j])
        print(f"{model.coef_[j]:8.3f} {p.support:7d} {n_eq:5d}  {p}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="graphsparse",
        description="Sparse learning on graph-structured data (parallel gSpan, PCST, projections).",
    )
    parser.add_argument("--version", action="version", version=f"graphsparse {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser("demo", help="run the main job on built-in generated data")
    demo.add_argument("--n-samples", type=int, default=300, help="graphs to generate (default 300)")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    demo.add_argument(
        "--min-support",
        type=_min_support,
        default=0.05,
        help="count or fraction of graphs (default 0.05)",
    )
    demo.add_argument(
        "--max-size", type=int, default=6, help="largest pattern in edges (default 6)"
    )
    demo.add_argument("--n-jobs", type=int, default=None, help="threads (default: all cores)")
    demo.add_argument("--top", type=int, default=10, help="patterns to show (default 10)")
    demo.add_argument(
        "--lambda1", type=float, default=0.01, help="L1 weight of the model (default 0.01)"
    )
    demo.set_defaults(func=_cmd_demo)

    mine = sub.add_parser(
        "mine",
        help="mine frequent connected subgraphs from a gSpan file or a TU folder",
        description="Mine frequent connected subgraphs. PATH is a gSpan text file "
        "(t/v/e lines) or a TU dataset folder (NAME_A.txt, ...).",
    )
    mine.add_argument("path", metavar="FILE_OR_FOLDER")
    mine.add_argument(
        "--min-support",
        type=_min_support,
        required=True,
        help="an absolute count (20) or a fraction of the graphs (0.1)",
    )
    mine.add_argument("--max-size", type=int, default=None, help="largest pattern in edges")
    mine.add_argument(
        "--single-vertices", action="store_true", help="also report single-vertex patterns"
    )
    mine.add_argument("--n-jobs", type=int, default=None, help="threads (default: all cores)")
    mine.add_argument("--max-nodes", type=int, default=None, help="stop after this many tree nodes")
    mine.add_argument("--time-limit", type=float, default=None, help="stop after this many seconds")
    mine.add_argument("--labels", default=None, help="file with one class label per graph")
    mine.add_argument("--top", type=int, default=10, help="most frequent patterns to print")
    mine.add_argument("--output", "-o", default=None, help="write all patterns as gSpan text")
    mine.set_defaults(func=_cmd_mine)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``graphsparse`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except (GraphSparseError, FileNotFoundError) as exc:
        print(f"graphsparse {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
