"""Monte Carlo tree search over whole turns, with chance nodes and the game's evaluation as a guide.

Why this shape: a playout of a dice race with random moves takes over a thousand steps and says little,
so leaves are judged by the evaluation hook instead (squashed to a win probability). Decision nodes
branch on whole-turn plans (see ``plans.py``), with priors from the evaluation of each plan's end
position; expanding a node already knows its player's best reply, so even a small budget looks one full
turn of the opponent ahead, over sampled dice. Chance nodes sample outcomes with the engine's
probabilities. Hidden information is handled by determinization: each tree searches a copy in which the
unseen is resampled, and the trees vote with their root visit counts.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from engines.base import GameState, HiddenInformation, Move
from engines.bots.heuristic import evaluator_for
from engines.bots.plans import Plan, turn_plans
from engines.registry import Evaluator, get_game

Values = dict[str, float]


class _Node:
    __slots__ = ("children", "plans", "priors", "seeds", "state", "sums", "visits")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.visits = 0
        self.sums: Values = {}
        self.plans: list[Plan] | None = None
        self.priors: list[float] = []
        self.seeds: list[float] = []  # per plan, the value of its end position for this node's player
        self.children: dict[object, _Node] = {}

    def mean(self, player: str) -> float:
        return self.sums.get(player, 0.0) / self.visits


class MCTSBot:
    """PUCT search with ``iterations`` per decision (split over ``determinizations`` for hidden games); without
    a count, the game's ``search_iterations`` from the registry.

    ``scale`` converts evaluation differences to win probabilities: value = 1 / (1 + exp(-eval / scale)).
    ``think_ms`` caps the time of a decision as read on ``clock`` (seconds), so a slow Pi at a real table
    still answers in time: the search stops early when the budget is spent, each determinization taking
    its share and at least one iteration. Without it the iteration count alone decides, and the same seed
    always gives the same game (demos and tests).
    """

    def __init__(
        self,
        rng: random.Random,
        iterations: int | None = None,
        *,
        evaluate: Evaluator | None = None,
        c_puct: float = 1.5,
        scale: float = 40.0,
        determinizations: int = 4,
        think_ms: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rng = rng
        self.iterations = iterations
        self.c_puct = c_puct
        self.scale = scale
        self.determinizations = determinizations
        self.think_ms = think_ms
        self.clock = clock
        self._evaluate = evaluate
        self._plan: list[Move] = []
        self._plan_key: object = None
        self._zero_sum = False
        self._expanded: dict[object, tuple[list[Plan], list[float], list[float], Values]] = {}

    def choose(self, state: GameState) -> Move:
        player = state.current_player
        if player is None:
            raise ValueError("no decision is due: the game is over or a chance event is next")
        if self._plan and self._plan_key == state.key():
            return self._next_planned(state)
        with _collector_paused():
            self._plan = self._search(state, player)
        return self._next_planned(state)

    def _search(self, state: GameState, player: str) -> list[Move]:
        """The trees of one decision, and the plan (or first move) they vote for."""
        evaluate = self._evaluate or evaluator_for(state)
        self._zero_sum = self._evaluate is None and get_game(state.game).zero_sum and len(state.players) == 2
        votes: dict[tuple[str, ...], float] = {}
        sequences: dict[tuple[str, ...], list[Move]] = {}
        trees = self.determinizations if isinstance(state, HiddenInformation) else 1
        iterations = get_game(state.game).search_iterations if self.iterations is None else self.iterations
        budget = max(1, iterations // trees)
        start = self.clock() if self.think_ms is not None else 0.0
        try:
            for tree in range(trees):
                root_state = state.determinize(player, self.rng) if isinstance(state, HiddenInformation) else state
                root = _Node(root_state.clone())
                deadline = None if self.think_ms is None else start + self.think_ms / 1000 * (tree + 1) / trees
                for i in range(budget):
                    if i and deadline is not None and self.clock() >= deadline:
                        break
                    self._iterate(root, evaluate)
                assert root.plans is not None
                for i, (seq, _) in enumerate(root.plans):
                    child = root.children.get(i)
                    # A plan searched in a determinized world may go on with moves that only that world allows
                    # (a removal after a guessed reveal): vote on its first move only, and search again next time.
                    name = tuple(str(m) for m in (seq if trees == 1 else seq[:1]))
                    sequences[name] = seq[:len(name)]
                    # visits decide; the prior breaks ties among unvisited plans
                    votes[name] = votes.get(name, 0.0) + (child.visits if child else 0) + root.priors[i] * 1e-3
        finally:
            self._expanded = {}  # a decision's own (the next one's positions are mostly new): freed at once
        best = max(votes, key=lambda k: (votes[k], k))
        return list(sequences[best])

    def _next_planned(self, state: GameState) -> Move:
        move = self._plan.pop(0)
        after = state.clone()
        after.apply(move)
        self._plan_key = after.key() if self._plan and after.current_player == state.current_player else None
        if self._plan_key is None:
            self._plan = []
        return move

    def _iterate(self, root: _Node, evaluate: Evaluator) -> None:
        node = root
        path = [node]
        while True:
            state = node.state
            if state.is_over():
                values = state.returns()
                break
            if state.is_chance():
                node = self._chance_child(node)
                path.append(node)
                continue
            if node.plans is None:
                values = self._expand(node, evaluate)
                break
            node = self._select(node)
            path.append(node)
        for n in path:
            n.visits += 1
            for p, v in values.items():
                n.sums[p] = n.sums.get(p, 0.0) + v

    def _chance_child(self, node: _Node) -> _Node:
        outcomes = node.state.chance_outcomes()
        move = self.rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes])[0]
        child = node.children.get(move)
        if child is None:
            after = node.state.clone()
            after.apply(move)
            child = node.children[move] = _Node(after)
        return child

    def _expand(self, node: _Node, evaluate: Evaluator) -> Values:
        """Compute the plans and their priors; the node's first value is its player's best plan.

        Why only the node's player's value of each plan where the game is not zero-sum: the priors and the
        selection read no other, and the best plan's values for every player (what the node backs up) are
        worked out once it is known, which halves the evaluations (more with more players) for the same
        numbers. In a zero-sum game one evaluation already gives both players' values, so every plan keeps
        both and the best one is not judged again (a node there often has a handful of plans, so judging the
        best twice would show).

        A position met again in this decision (the same world searched by another determinization, or a
        transposition) takes the plans already weighed: they depend on the position alone, and nodes only
        read them (a plan's end position is cloned before it becomes a node), so the search is unchanged.
        """
        state = node.state
        key = state.key()
        known = self._expanded.get(key)
        if known is None:
            player = state.current_player
            assert player is not None
            plans = turn_plans(state)
            if self._zero_sum:
                seeds = [self._values(end, evaluate) for _, end in plans]
                mine = [v[player] for v in seeds]
                top = max(mine)
                first = seeds[mine.index(top)]
            else:
                mine = [self._value(end, player, evaluate) for _, end in plans]
                top = max(mine)
                first = self._values(plans[mine.index(top)][1], evaluate)
            weights = [math.exp((v - top) * 8.0) for v in mine]
            total = sum(weights)
            known = self._expanded[key] = (plans, mine, [w / total for w in weights], first)
        node.plans, node.seeds, node.priors, first = known
        return first

    def _value(self, state: GameState, player: str, evaluate: Evaluator) -> float:
        """``_values(state, evaluate)[player]`` in a game that is not zero-sum, the same number, without judging
        for the other players."""
        if state.is_over():
            return state.returns()[player]
        return 1.0 / (1.0 + math.exp(-evaluate(state, player) / self.scale))

    def _values(self, state: GameState, evaluate: Evaluator) -> Values:
        if state.is_over():
            return state.returns()
        if self._zero_sum:  # evaluate(b) == -evaluate(a) exactly: the same numbers for half the work
            a, b = state.players
            e = evaluate(state, a)
            return {a: 1.0 / (1.0 + math.exp(-e / self.scale)), b: 1.0 / (1.0 + math.exp(e / self.scale))}
        return {p: 1.0 / (1.0 + math.exp(-evaluate(state, p) / self.scale)) for p in state.players}

    def _select(self, node: _Node) -> _Node:
        player = node.state.current_player
        assert player is not None and node.plans is not None
        root_n = math.sqrt(node.visits)
        best_i, best_score = 0, float("-inf")
        for i, prior in enumerate(node.priors):
            child = node.children.get(i)
            if child is None or child.visits == 0:
                q, n = node.seeds[i], 0
            else:
                q, n = child.mean(player), child.visits
            score = q + self.c_puct * prior * root_n / (1 + n)
            if score > best_score:
                best_i, best_score = i, score
        child = node.children.get(best_i)
        if child is None:
            child = node.children[best_i] = _Node(node.plans[best_i][1].clone())
        return child


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector for one search.

    Why: a search keeps tens of thousands of fresh objects alive until it ends (every plan's position, the
    trees), so the collector's generation passes keep walking them, a fifth to a third of a big Scipio
    decision, while they hold no reference cycles: reference counting frees them all as the search ends.
    The collector is left as it was found (disabled by the caller stays disabled).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
