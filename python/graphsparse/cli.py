"""The ``graphsparse`` command line: ``demo`` (the main job on built-in data) and ``mine``."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from . import __version__
from ._dataset import _as_response
from ._optional import require
from .datasets import GraphDataset, load_tu, make_subgraph_classification, read_gspan
from .exceptions import GraphSparseError, InvalidParameterError
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


def _load(path: str, labels: str | None, directed: bool = False) -> GraphDataset:
    if os.path.isdir(path) or path.endswith("_A.txt") or path.endswith("_graph_indicator.txt"):
        if directed:
            raise InvalidParameterError(
                "--directed reads gSpan files only: the TU format has no directed graphs"
            )
        ds = load_tu(path)
        if labels is not None:
            ds.y = _as_response(labels, len(ds))
        return ds
    return read_gspan(path, y=labels, directed=directed)


def _print_patterns(result: MiningResult, top: int, out: Any = None) -> None:
    # the stream is looked up per call: a default bound at import would outlive a redirect
    out = sys.stdout if out is None else out
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
    ds = _load(args.path, args.labels, args.directed)
    t_read = time.perf_counter() - t0
    result = mine_subgraphs(
        ds,
        args.min_support,
        max_size=args.max_size,
        n_jobs=args.n_jobs,
        single_vertices=args.single_vertices,
        closed=args.closed,
        maximal=args.maximal,
        max_nodes=args.max_nodes,
        time_limit=args.time_limit,
    )
    print(f"{args.path}: {ds!r} (read in {t_read:.2f} s)")
    status = f"STOPPED by {result.truncation} budget" if result.truncated else "complete"
    kind = "closed " if args.closed else "maximal " if args.maximal else ""
    print(
        f"{len(result)} {kind}frequent connected patterns (min_support={args.min_support}, "
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


def _timed(fn: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def _demo_subgraph(args: argparse.Namespace) -> Any:
    from .models import SubgraphLogisticRegression

    print("\n== 1. Sparse models over all subgraph features (gSpan + branch-and-bound BCGD)")
    ds, t = _timed(
        lambda: make_subgraph_classification(n_samples=args.n_samples, random_state=args.seed)
    )
    print(f"generated {ds!r} in {t:.2f} s (seed {args.seed})")
    n_train = (3 * len(ds)) // 4
    train, test = ds[:n_train], ds[n_train:]
    y = np.asarray(ds.y)
    model = SubgraphLogisticRegression(
        lambda1=args.lambda1,
        max_size=args.max_size,
        min_support=args.min_support,
        n_jobs=args.n_jobs,
    )
    _, seconds = _timed(lambda: model.fit(train, y[:n_train]))
    stats = model.search_stats_
    print(
        f"L1 logistic regression over all subgraphs (lambda1={args.lambda1}, "
        f"min_support={args.min_support}, max_size={args.max_size}) on {n_train} graphs:"
    )
    print(
        f"  mined the gSpan tree on the fly: {stats['path_searches']} searches along the path "
        f"from lambda_max={model.lambda_max_:.4g}, {stats['visited']} tree nodes visited, "
        f"{stats['pruned_bound']} subtrees pruned by the bound and {stats['pruned_spp']} by safe "
        f"pattern pruning; {seconds:.2f} s for the whole fit, duality gap "
        f"{model.dual_gap_:.2g}, converged={model.converged_}"
    )
    print(f"  train accuracy {model.score(train, y[:n_train]):.3f}")
    if len(test):
        print(
            f"  test accuracy  {model.score(test, y[n_train:]):.3f} ({len(test)} held-out graphs)"
        )
    order = np.argsort(-np.abs(model.coef_), kind="stable")
    print(f"{len(model.coef_)} selected patterns (largest |coefficient| first):")
    print(f"{'coef':>8} {'support':>7} {'equiv':>5}  pattern")
    for j in order[: args.top]:
        p = model.patterns_[j]
        n_eq = len(model.equivalent_patterns_[j])
        print(f"{model.coef_[j]:8.3f} {p.support:7d} {n_eq:5d}  {p}")
    return ds, model


def _demo_graphda(args: argparse.Namespace) -> Any:
    from . import metrics, online
    from .datasets import make_graphda_benchmark

    print("\n== 2. Online graph-structured sparsity (GraphDA, PCST head/tail projections)")
    d = make_graphda_benchmark("Graph01", n_train=200, n_valid=0, n_test=400, random_state=0)
    s = len(d.true_support)
    rows = []
    for name, est in (
        ("GraphDA", online.GraphDA(d.edges, s, 100.0)),
        ("l1-RDA", online.L1RDA(lam=0.01)),
    ):
        _, t = _timed(lambda est=est: est.fit(d.X_train, d.y_train))
        _, _, f1 = metrics.support_scores(est.coef_, d.true_support)
        rows.append((name, est))
        print(
            f"  {name:8s} one pass over 200 samples of a 33x33 grid ({s}-node true subgraph): "
            f"{t:.2f} s, support F1 {f1:.3f}, test accuracy {est.score(d.X_test, d.y_test):.3f}"
        )
    return d, rows[0][1]


def _demo_steiner_projections() -> None:
    from .datasets import grid_edges
    from .projections import project_l1_ball, project_simplex
    from .steiner import pcst

    print("\n== 3. Prize-collecting Steiner forest and exact projections")
    rng = np.random.default_rng(0)
    side = 300
    edges = grid_edges(side, side)
    prizes = rng.exponential(0.5, side * side)
    costs = np.ones(len(edges))
    (nodes, picked), t = _timed(lambda: pcst(edges, prizes, costs, num_clusters=5))
    print(
        f"  PCST-GW on a {side}x{side} grid ({len(edges)} edges, 5 trees): {len(nodes)} nodes, "
        f"{len(picked)} edges in {t:.2f} s"
    )
    V = rng.normal(size=(100_000, 100))
    _, t1 = _timed(lambda: project_simplex(V))
    _, t2 = _timed(lambda: project_l1_ball(V, 5.0))
    print(
        f"  projected 100,000 vectors of length 100 onto the simplex in {t1:.2f} s and onto the "
        f"l1 ball in {t2:.2f} s"
    )


def _demo_recovery() -> Any:
    from sklearn.linear_model import Lasso

    from . import metrics
    from .datasets import make_graph_structured_recovery
    from .recovery import GraphStructuredRecovery, lambda_max

    print("\n== 4. Convex graph-structured sparse recovery (Kuroda & Kitahara)")
    p = make_graph_structured_recovery(random_state=0)
    lam = 0.005 * lambda_max(p.A, p.y, p.edges)
    model = GraphStructuredRecovery(p.edges, alpha=100.0, lambda_=lam)
    _, t = _timed(lambda: model.fit(p.A, p.y))
    # the same lambda without the graph: the lasso (scikit-learn divides its loss by n)
    lasso = Lasso(alpha=lam / len(p.y), fit_intercept=False, max_iter=20_000).fit(p.A, p.y)
    print(
        f"  N={p.A.shape[1]} vertices of a 3-regular graph, d={p.A.shape[0]} measurements, "
        f"40 dB: NMSE {metrics.nmse(p.x_true, model.coef_):.4f} (lasso at the same lambda "
        f"{metrics.nmse(p.x_true, lasso.coef_):.4f}), {model.n_iter_} iterations, {t:.2f} s"
    )
    return p, model


def _demo_compression(ds: GraphDataset) -> None:
    from sklearn.model_selection import cross_val_score
    from sklearn.svm import LinearSVC

    from .compression import OTCompressor, WLSubtreeFeatures

    print("\n== 5. Graph compression by optimal transport, compiled Weisfeiler-Lehman features")
    small, t = _timed(lambda: OTCompressor(ratio=0.5).fit_transform(ds))
    print(
        f"  OTC kept {int(np.sum(small.n_vertices))} of {int(np.sum(ds.n_vertices))} vertices "
        f"({len(ds)} graphs) in {t:.2f} s"
    )
    y = np.asarray(ds.y)
    for name, data in (("original", ds), ("compressed", small)):
        F, t = _timed(lambda data=data: WLSubtreeFeatures(n_iter=3).fit_transform(data))
        acc = cross_val_score(LinearSVC(C=0.1), F, y, cv=3).mean()
        print(
            f"  WL subtree features of the {name} graphs: {F.shape[1]} columns in {t:.3f} s, "
            f"3-fold linear SVM accuracy {acc:.3f}"
        )


def _demo_rules() -> None:
    from sklearn.datasets import load_iris
    from sklearn.model_selection import cross_val_score

    from .rules import RuleEnsembleClassifier

    print("\n== 6. Rule ensembles by generalized hierarchical kernel learning (gHKL-MT)")
    # NumPy, not as_frame=True: that needs pandas, which `pip install .` does not bring
    iris = load_iris()
    X, y = iris.data, iris.target
    names = {f"x{j}": name for j, name in enumerate(iris.feature_names)}
    model, t = _timed(lambda: RuleEnsembleClassifier(C=10.0).fit(X, y))
    acc = cross_val_score(RuleEnsembleClassifier(C=10.0), X, y, cv=3).mean()
    print(
        f"  iris (3 classes, one shared lattice): {model.n_rules_} rules in {t:.2f} s, "
        f"3-fold accuracy {acc:.3f}, duality gap {model.dual_gap_:.3g}; strongest rules:"
    )
    for rule in sorted(model.rules_, key=lambda r: -r.strength)[:4]:
        named = tuple(replace(c, feature=names[c.feature]) for c in rule.conditions)
        print(f"    {replace(rule, conditions=named)}")


def _demo_figure(path: str, model: Any, graphda: Any, recovery: Any) -> None:
    try:
        matplotlib = require("matplotlib", "plot", "the demo's figure")
    except ImportError as exc:
        print(f"\n(no figure: {exc})")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    obj = [h["objective"] for h in model.history_]
    axes[0].plot(range(1, len(obj) + 1), obj, marker="o")
    axes[0].set(title="subgraph L1 logistic: objective", xlabel="BCGD iteration")
    (d, gda) = graphda
    side = round(np.sqrt(len(gda.coef_)))
    truth = np.zeros(side * side)
    truth[d.true_support] = 1.0
    axes[1].imshow(np.abs(gda.coef_).reshape(side, side), cmap="Greys")
    axes[1].contour(truth.reshape(side, side), levels=[0.5], colors="red", linewidths=1)
    axes[1].set(title="GraphDA |w| (red: true subgraph)", xticks=[], yticks=[])
    problem, rec = recovery
    axes[2].plot(problem.x_true, "o", ms=3, label="true x")
    axes[2].plot(rec.coef_, ".", ms=3, label="recovered")
    axes[2].set(title="graph-structured recovery", xlabel="vertex")
    axes[2].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    print(f"\nwrote {path}")


def _cmd_demo(args: argparse.Namespace) -> int:
    print(f"graphsparse {__version__} demo: every solver on built-in generated data")
    t0 = time.perf_counter()
    ds, model = _demo_subgraph(args)
    graphda = _demo_graphda(args)
    _demo_steiner_projections()
    recovery = _demo_recovery()
    _demo_compression(ds)
    _demo_rules()
    if args.figure:
        _demo_figure(args.figure, model, graphda, recovery)
    print(f"\ndemo finished in {time.perf_counter() - t0:.1f} s")
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
    demo.add_argument(
        "--figure",
        default="graphsparse-demo.png",
        help="picture to write when matplotlib is installed (default graphsparse-demo.png; "
        "an empty string writes none)",
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
    which = mine.add_mutually_exclusive_group()
    which.add_argument(
        "--closed",
        action="store_true",
        help="only closed patterns (no equal-support super-pattern)",
    )
    which.add_argument(
        "--maximal", action="store_true", help="only maximal patterns (no frequent super-pattern)"
    )
    mine.add_argument("--n-jobs", type=int, default=None, help="threads (default: all cores)")
    mine.add_argument("--max-nodes", type=int, default=None, help="stop after this many tree nodes")
    mine.add_argument("--time-limit", type=float, default=None, help="stop after this many seconds")
    mine.add_argument("--labels", default=None, help="file with one class label per graph")
    mine.add_argument(
        "--directed",
        action="store_true",
        help="read a gSpan file's 'e u v label' lines as arcs u -> v (directed patterns)",
    )
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
