"""Independent reference implementation of the Hannibal (Parker Brothers, 1974) rules, written from
shared/rules/hannibal.md (interpretations I-1..I-5) without reading engines/: a test oracle.

Standard library only.  States are plain dicts in the JSON shape of the rules
page:

    {"game": "hannibal", "to_move": "yellow", "dice": [3, 5], "doubles": false,
     "board": {"0": ["yellow", 4], ...},
     "waiting": {"yellow": 0, "blue": 0}, "home": {"yellow": 0, "blue": 0},
     "winner": null}

Public functions: legal_steps, apply_step, apply_roll, turn_outcomes.
"""

import copy
import json

YELLOW = "yellow"
BLUE = "blue"
PIECES_PER_SIDE = 12
FIRST_POS = 0
LAST_POS = 48


def is_camp(p):
    return 0 <= p <= LAST_POS and p % 6 == 0


def opponent(player):
    return BLUE if player == YELLOW else YELLOW


def base_of(player):
    return 0 if player == YELLOW else 48


def opponent_base(player):
    return base_of(opponent(player))


def forward_sign(player):
    return 1 if player == YELLOW else -1


def initial_state(first=YELLOW):
    return {
        "game": "hannibal",
        "to_move": first,
        "dice": [],
        "doubles": False,
        "board": {"0": [YELLOW, 4], "6": [YELLOW, 4], "12": [YELLOW, 4],
                  "36": [BLUE, 4], "42": [BLUE, 4], "48": [BLUE, 4]},
        "waiting": {YELLOW: 0, BLUE: 0},
        "home": {YELLOW: 0, BLUE: 0},
        "winner": None,
    }


# ---------------------------------------------------------------------------
# internal helpers


def _board(pos):
    """Board as {int position: (owner, count)}."""
    out = {}
    for k, v in pos["board"].items():
        owner, count = v[0], int(v[1])
        if count > 0:
            out[int(k)] = (owner, count)
    return out


def _board_to_json(board):
    return {str(p): [board[p][0], board[p][1]] for p in sorted(board)}


def _dice_options(dice, waiting):
    """List of (value, dice_used) pairs available for one step.

    Each unused die can be used alone; the total only while both dice of the
    roll are still unused (len(dice) == 2), and never for an entry (I-4),
    i.e. never while pieces are waiting.
    """
    opts = []
    for d in dice:
        opts.append((d, [d]))
    if len(dice) == 2 and waiting == 0:
        opts.append((dice[0] + dice[1], [dice[0], dice[1]]))
    return opts


def _landing_ok(board, player, target, force):
    """Can `force` pieces of `player` land on `target` (a board position that
    is NOT the opponent's Base Camp reached as home)?"""
    occ = board.get(target)
    if occ is None or occ[0] == player:
        return True
    opp_count = occ[1]
    if is_camp(target):
        return force >= opp_count + 1
    # track space: a single mover may send a single opposing piece
    return opp_count == 1


def _enumerate(pos):
    """Return dict step -> (kind, src, dst, dice_used)."""
    result = {}
    if pos.get("winner") is not None or not pos["dice"]:
        return result
    player = pos["to_move"]
    board = _board(pos)
    waiting = int(pos["waiting"][player])
    dice = list(pos["dice"])
    fwd = forward_sign(player)
    home_pos = opponent_base(player)

    if waiting > 0:
        # I-4: entries only, one die each.
        for d in dice:
            target = base_of(player) + fwd * d
            if _landing_ok(board, player, target, 1):
                result["E%d" % target] = ("entry", None, target, [d])
        return result

    opts = _dice_options(dice, waiting)

    for src in sorted(board):
        owner, count = board[src]
        if owner != player:
            continue
        # piece moves
        for value, used in opts:
            # forward
            dst = src + fwd * value
            if 0 <= dst <= LAST_POS:
                if dst == home_pos or _landing_ok(board, player, dst, 1):
                    result["%d-%d" % (src, dst)] = ("piece", src, dst, used)
            # backward: only when landing on a camp
            dst = src - fwd * value
            if 0 <= dst <= LAST_POS and is_camp(dst):
                if _landing_ok(board, player, dst, 1):
                    result["%d-%d" % (src, dst)] = ("piece", src, dst, used)
        # stack moves
        if count >= 2 and is_camp(src):
            for value, used in opts:
                if value != count:
                    continue
                for delta in (6, 12, -6, -12):
                    dst = src + delta
                    if not (0 <= dst <= LAST_POS):
                        continue
                    moving_forward = (delta * fwd) > 0
                    if moving_forward and dst == home_pos:
                        ok = True
                    else:
                        ok = _landing_ok(board, player, dst, count)
                    if ok:
                        result["S%d-%d" % (src, dst)] = ("stack", src, dst, used)
    return result


def _remove_dice(dice, used):
    dice = list(dice)
    for u in used:
        dice.remove(u)
    return dice


def _end_turn(state, step_made):
    state["dice"] = []
    if not (state["doubles"] and step_made):
        state["to_move"] = opponent(state["to_move"])
    state["doubles"] = False


def _canonical_copy(pos):
    return {
        "game": "hannibal",
        "to_move": pos["to_move"],
        "dice": sorted(int(d) for d in pos["dice"]),
        "doubles": bool(pos["doubles"]),
        "board": _board_to_json(_board(pos)),
        "waiting": {YELLOW: int(pos["waiting"][YELLOW]),
                    BLUE: int(pos["waiting"][BLUE])},
        "home": {YELLOW: int(pos["home"][YELLOW]),
                 BLUE: int(pos["home"][BLUE])},
        "winner": pos.get("winner"),
    }


# ---------------------------------------------------------------------------
# public API


def legal_steps(pos):
    return set(_enumerate(pos).keys())


def apply_step(pos, step):
    steps = _enumerate(pos)
    if step not in steps:
        raise ValueError("illegal step %r in %s" % (step, json.dumps(pos, sort_keys=True)))
    kind, src, dst, used = steps[step]
    state = _canonical_copy(copy.deepcopy(pos))
    player = state["to_move"]
    opp = opponent(player)
    board = _board(state)
    home_pos = opponent_base(player)

    if kind == "entry":
        state["waiting"][player] -= 1
        force = 1
        moving_forward = True
    else:
        owner, count = board[src]
        force = 1 if kind == "piece" else count
        if force == count:
            del board[src]
        else:
            board[src] = (owner, count - force)
        moving_forward = (dst - src) * forward_sign(player) > 0

    if moving_forward and dst == home_pos:
        # home free; opposing pieces on their own base are ignored (I-3)
        state["home"][player] += force
    else:
        occ = board.get(dst)
        if occ is not None and occ[0] == opp:
            # legality already checked: send them all back
            state["waiting"][opp] += occ[1]
            occ = None
        if occ is None:
            board[dst] = (player, force)
        else:
            board[dst] = (player, occ[1] + force)

    state["board"] = _board_to_json(board)
    state["dice"] = _remove_dice(state["dice"], used)

    if state["home"][player] >= PIECES_PER_SIDE:
        state["winner"] = player
        state["dice"] = []
        state["doubles"] = False
        return state

    if not state["dice"] or not _enumerate(state):
        _end_turn(state, step_made=True)
    return state


def apply_roll(pos, d1, d2):
    if pos.get("winner") is not None:
        raise ValueError("game is over")
    if pos["dice"]:
        raise ValueError("dice already rolled")
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError("bad dice")
    state = _canonical_copy(copy.deepcopy(pos))
    state["dice"] = sorted([d1, d2])
    state["doubles"] = d1 == d2
    if not _enumerate(state):
        # I-5: no step at all -> turn passes at once, even on a double
        state["dice"] = []
        state["doubles"] = False
        state["to_move"] = opponent(state["to_move"])
    return state


def canonical(pos):
    return json.dumps(pos, sort_keys=True)


def turn_outcomes(pos):
    out = set()
    start = _canonical_copy(copy.deepcopy(pos))
    if start["winner"] is not None or not start["dice"]:
        out.add(canonical(start))
        return out
    if not _enumerate(start):
        # Only reachable as an unplayable fresh roll (bookkeeping otherwise
        # ends the turn already); a step was made iff a die is gone.
        _end_turn(start, step_made=len(start["dice"]) < 2)
        out.add(canonical(start))
        return out
    seen = set()
    stack = [start]
    while stack:
        s = stack.pop()
        key = canonical(s)
        if key in seen:
            continue
        seen.add(key)
        if s["winner"] is not None or not s["dice"]:
            out.add(key)
            continue
        for step in _enumerate(s):
            stack.append(apply_step(s, step))
    return out
