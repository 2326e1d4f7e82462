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

import math
import random

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
        self.seeds: list[Values] = []
        self.children: dict[object, _Node] = {}

    def mean(self, player: str) -> float:
        return self.sums.get(player, 0.0) / self.visits


class MCTSBot:
    """PUCT search with ``iterations`` per decision (split over ``determinizations`` for hidden games).

    ``scale`` converts evaluation differences to win probabilities: value = 1 / (1 + exp(-eval / scale)).
    """

    def __init__(
        self,
        rng: random.Random,
        iterations: int = 64,
        *,
        evaluate: Evaluator | None = None,
        c_puct: float = 1.5,
        scale: float = 40.0,
        determinizations: int = 4,
    ) -> None:
        self.rng = rng
        self.iterations = iterations
        self.c_puct = c_puct
        self.scale = scale
        self.determinizations = determinizations
        self._evaluate = evaluate
        self._plan: list[Move] = []
        self._plan_key: object = None
        self._zero_sum = False

    def choose(self, state: GameState) -> Move:
        player = state.current_player
        if player is None:
            raise ValueError("no decision is due: the game is over or a chance event is next")
        if self._plan and self._plan_key == state.key():
            return self._next_planned(state)
        evaluate = self._evaluate or evaluator_for(state)
        self._zero_sum = self._evaluate is None and get_game(state.game).zero_sum and len(state.players) == 2
        votes: dict[tuple[str, ...], float] = {}
        sequences: dict[tuple[str, ...], list[Move]] = {}
        trees = self.determinizations if isinstance(state, HiddenInformation) else 1
        budget = max(1, self.iterations // trees)
        for _ in range(trees):
            root_state = state.determinize(player, self.rng) if isinstance(state, HiddenInformation) else state
            root = _Node(root_state.clone())
            for _ in range(budget):
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
        best = max(votes, key=lambda k: (votes[k], k))
        self._plan = list(sequences[best])
        return self._next_planned(state)

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
        """Compute the plans and their priors; the node's first value is its player's best plan."""
        state = node.state
        player = state.current_player
        assert player is not None
        node.plans = turn_plans(state)
        node.seeds = [self._values(end, evaluate) for _, end in node.plans]
        mine = [v[player] for v in node.seeds]
        top = max(mine)
        weights = [math.exp((v - top) * 8.0) for v in mine]
        total = sum(weights)
        node.priors = [w / total for w in weights]
        return node.seeds[mine.index(top)]

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
                q, n = node.seeds[i][player], 0
            else:
                q, n = child.mean(player), child.visits
            score = q + self.c_puct * prior * root_n / (1 + n)
            if score > best_score:
                best_i, best_score = i, score
        child = node.children.get(best_i)
        if child is None:
            child = node.children[best_i] = _Node(node.plans[best_i][1].clone())
        return child
