"""Guided play: the engine asks for the player's numbers once, then for areas, choices and dice.

It is a generator over the session state (see ``docs/architecture.md``): it never rolls, prints or
reads the clock. Hits live in the session's tallies (``state.trackers.tallies``, the book's form), the
rest of a fight in :class:`Dungeon`; both are read fresh after every answer, because one-shot commands
(``companion tally hit Krylla``) may change them between two answers. The rules themselves are the
pure step functions of :mod:`.rules`, the same ones the odds count.

The engine stays lean for the simulator: requests that do not depend on the moment are built once per
monster and party, and log text is only built when the log is enabled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dice.expr import TALISMAN
from companion.engine.requests import REFRESH, Choice, Option, RollRequest
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.data import HEROES, RANGERESS, Area
from companion.games.adventure_in_the_dungeon.engine import table
from companion.games.adventure_in_the_dungeon.engine.menu_keys import HERO_KEYS, area_key
from companion.games.adventure_in_the_dungeon.engine.numbers import ask_data
from companion.games.adventure_in_the_dungeon.engine.requests import first_choice, hero_request, monster_request
from companion.games.adventure_in_the_dungeon.engine.words import (
    cure_words,
    death_mark,
    death_words,
    hits_text,
    them,
    verdict_words,
)
from companion.games.adventure_in_the_dungeon.model import Dungeon
from companion.games.adventure_in_the_dungeon.rules import Fight, Model
from companion.session.trackers import Tally

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from companion.engine.requests import Engine, Request
    from companion.session.state import State


def setup(state: State) -> None:
    state.game = Dungeon()
    table.party(state)  # Adelhardt's tally at once: the rule text prints his nine hits


def read_data(state: State, values: dict[str, Any]) -> dict[str, Any]:
    """A ``gamedata`` event stored the player's numbers: each hero whose hits are known has a tally at
    once (so ``status`` and ``tally hit`` work before the first answer, or with no guided play at all).
    Returns the values the log lists: none of Area 12's monster fields when it holds no monster."""
    table.party(state)
    table.follow(state)  # Area 12's monster may be one the player has tallied already
    if state.data.get(D.AREA12_KIND) == "monster":
        return values
    return {k: v for k, v in values.items() if not k.startswith("area12.") or k == D.AREA12_KIND}


# ---- reading and writing the fight ----------------------------------------------------------------

_MODELS: dict[tuple[Area, R.Numbers, frozenset[str]], Model] = {}


def model_for(state: State, area: Area) -> Model:
    """The area's compiled model for this party and these variants (cached)."""
    nums = R.numbers(state.data)
    assert nums is not None, "the party's numbers are asked for before play"
    key = (area, nums, frozenset(state.meta.variants))
    got = _MODELS.get(key)
    if got is None:
        if len(_MODELS) > 64:
            _MODELS.clear()
        got = _MODELS[key] = R.compile_model(area, nums, key[2])
    return got


def _tally(state: State, name: str, hits: int, role: str = "", monster: bool = False) -> Tally:
    """The tally called ``name`` (made again if a one-shot command removed it, and given the current
    number of hits withstood if the player corrected it in their game data)."""
    tallies = state.trackers.tallies
    t = tallies.get(name)
    if t is None:
        t = tallies[name] = Tally(name, hits, 0, role, monster)
    elif t.max_hits != hits:
        t.max_hits = hits
    return t


_NAMES = tuple(h.name for h in HEROES)


def sync(state: State, model: Model) -> None:
    """Make sure the party's and the monster's tallies exist and match the numbers in use."""
    for i, hero in enumerate(HEROES):
        _tally(state, hero.name, model.maxh[i], hero.role)
    _tally(state, model.area.monster, model.area.hits, monster=True)


def snapshot(state: State, model: Model, monster: bool = True) -> Fight:
    """The fight as it stands, read from the tallies and the game state (``monster``: in an area)."""
    g: Dungeon = state.game
    t = state.trackers.tallies
    p, r, f, w = _NAMES
    try:
        hs = (t[p].hits, t[r].hits, t[f].hits, t[w].hits)
        m = t[model.area.monster].hits if monster else 0
    except KeyError:  # a one-shot command removed a tally
        sync(state, model)
        return snapshot(state, model, monster)
    return Fight(m, hs, g.dead, g.para, g.trap, g.twine, g.lock, g.nlock, g.cure, g.att, g.struck, g.sfirst)


def living(state: State) -> int:
    """The mask of living heroes (between areas too)."""
    g: Dungeon = state.game
    tallies = state.trackers.tallies
    mask = 0
    for i, h in enumerate(HEROES):
        t = tallies.get(h.name)
        if t is not None and not t.slain and not g.dead & (1 << i):
            mask |= 1 << i
    return mask


def _apply(
    state: State, model: Model, new: Fight, cause: str = "", monster: bool = True, old: Fight | None = None
) -> None:
    """Store ``new`` and log what changed: hits as tallies, deaths, and the fight's flags.

    ``old`` is the state ``new`` was computed from, if the caller has it (else it is read again);
    ``monster`` is False between areas (the Paladin's cure), where no monster's tally is touched."""
    g: Dungeon = state.game
    if old is None:
        old = snapshot(state, model, monster)
    if new == old:
        return
    tallies = state.trackers.tallies
    if new.hs != old.hs:
        for name, hits, was_hits in zip(_NAMES, new.hs, old.hs, strict=True):
            if hits < was_hits:
                tallies[name].set_hits(hits)  # a cure: the sheet writes the count going up again
            else:
                tallies[name].hits = hits
    if monster and new.m != old.m:
        tallies[model.area.monster].hits = new.m
    g.dead, g.para, g.trap, g.twine = new.dead, new.para, new.trap, new.twine
    g.lock, g.nlock, g.cure, g.att, g.struck, g.sfirst = new.lock, new.nlock, new.cure, new.att, new.struck, new.sfirst
    was = now = 0
    if new.hs != old.hs or new.dead != old.dead:
        was, now = R.alive(model, old), R.alive(model, new)
        for i, hero in enumerate(HEROES):
            if was & (1 << i) and not now & (1 << i):
                g.fates[hero.key] = death_words(model, old, new, i, cause)
                if new.hs[i] < model.maxh[i]:  # dead by other than hits: the tally says how
                    tallies[hero.name].fate = death_mark(g.fates[hero.key])
    log = state.log
    if not log.enabled:
        return
    if monster and new.m != old.m:
        log.text(tallies[model.area.monster].book())
    for i, hero in enumerate(HEROES):
        b = 1 << i
        if new.hs[i] != old.hs[i]:
            log.text(tallies[hero.name].book())
        if was & b and not now & b:
            log.text(f"{hero.name} {g.fates[hero.key]}.")
            continue
        if new.para & b and not old.para & b:
            log.text(f"{hero.name} is paralysed until the Paladin's cure.")
        if new.twine & b and not old.twine & b:
            log.text(f"{hero.name} is entwined by a tentacle: a miss on the next attack drowns {them(i)}.")
        if new.trap & b and not old.trap & b:
            log.text(f"{hero.name} is caught in the webs.")
        if new.nlock & b and not old.nlock & b:
            log.text(f"{hero.name} missed: no attack on the {model.area.monster} next round.")


# ---- the game -------------------------------------------------------------------------------------


def ask(step: Callable[[], Request | None]) -> Generator[Request, Any, Any]:
    """Ask the request ``step()`` builds from the table. After a hand command (the fold sends REFRESH,
    ``Game.refresh``) it is built again from the table as it now stands: asked again, or dropped
    (None) when the table no longer calls for it (the hero fell, the monster is slain)."""
    request = step()
    while request is not None:
        answer = yield request
        if answer is not REFRESH:
            return answer
        request = step()
    return None


def play(state: State) -> Engine:
    yield from ask_data(state)
    start(state)
    while True:
        while len(state.game.cleared) > state.trackers.talisman.kills and not state.trackers.talisman.found:
            yield from talisman(state)  # a kill made at the table, by hand: its Talisman roll
        if not living(state):
            finish(state, "lost")
            return
        answer = yield area_choice(state)
        if answer is REFRESH:
            continue  # a hand command changed the table: the step, built again from it
        if answer == "leave":
            finish(state, "won")
            return
        if answer == "abandon":
            finish(state, "abandoned")
            return
        if answer.startswith("cure:"):
            give_cure(state, answer.removeprefix("cure:"), None)
            continue
        yield from fight(state, int(answer))


def start(state: State) -> None:
    """Write the party's tallies once the numbers are known, and open the log."""
    g: Dungeon = state.game
    if g.started:
        return
    g.started = True
    nums = R.numbers(state.data)
    assert nums is not None
    for i, hero in enumerate(HEROES):
        _tally(state, hero.name, nums.maxh[i], hero.role)
    log = state.log
    if not log.enabled:
        return
    log.heading("The party")
    source = state.data.get(D.SOURCE)
    log.text(f"The heroes' numbers and Area 12: {D.SOURCES.get(source, 'entered by the player')}.")
    for i, hero in enumerate(HEROES):
        log.text(
            f"{state.trackers.tallies[hero.name].book()} · hits a monster on {nums.to_hit[i]}+ · "
            f"is hit on {nums.be_hit[i]}+"
            + (f" · spells hit on {D.MAGIC_TO_HIT}+ for {D.MAGIC_HITS} hits" if i == 3 else "")
        )
    twelve = R.area12(state.data)
    log.text("Area 12: " + (f"{twelve.monster}, {twelve.hits} hits to slay." if twelve else "no monster."))
    monsters = len(R.areas(state.data))
    log.text(f"{monsters} monsters guard the dungeon; one of them holds the Holy Talisman of St. Cuthbert.")


def monsters_left(state: State) -> list[int]:
    g: Dungeon = state.game
    return [n for n in R.areas(state.data) if n not in g.cleared]


def area_choice(state: State) -> Choice:
    """Which area the party enters next (the player moves on the board), or leave, cure, give up."""
    g: Dungeon = state.game
    ts = state.trackers.talisman
    tallies = state.trackers.tallies
    options: list[Option] = []
    if ts.found:
        options.append(Option("leave", "Leave the dungeon with the Talisman", key="le"))
    for n, area in R.areas(state.data).items():
        if n in g.cleared:
            continue
        t = tallies.get(area.monster)
        hint = f"{area.hits} hits to slay"
        if t is not None and t.hits:
            hint += f"; it has {hits_text(t.hits)} already"
        if area.only and not living(state) & sum(1 << h for h in area.only):
            hint += "; no one left can hurt it"
        options.append(Option(str(n), f"Area {n}: {area.place}", hint, area_key(area.monster)))
    options.extend(cure_options(state))
    if not ts.found:
        options.append(Option("abandon", "Give up the quest (the party leaves without the Talisman)", key="gi"))
    prompt = (
        "The Talisman is found: leave the dungeon!"
        if ts.found
        else "Move the party on the board: which area does it enter?"
    )
    hand = R.areas(state.data).get(g.hand) if g.hand is not None else None
    if hand is not None and not ts.found:
        # Fought from the book: the step is that fight; choosing its area lets companion run the rest.
        prompt = (
            f"The party fights the {hand.monster} in Area {g.hand} at the table: mark each hit as it falls, "
            "or choose its area for companion to run the rest of the fight"
        )
        mine = next(i for i, o in enumerate(options) if o.value == str(g.hand))
        options.insert(0, options.pop(mine))
    return Choice("area.enter", prompt, tuple(options))


def cure_options(state: State) -> list[Option]:
    """The Paladin's cure, one option per hero it can help (while it is unspent and he lives)."""
    g: Dungeon = state.game
    if g.cure or not living(state) & 1:
        return []
    out = []
    tallies = state.trackers.tallies
    for i, hero in enumerate(HEROES):
        b = 1 << i
        t = tallies[hero.name]
        if not living(state) & b or not t.hits:
            continue
        hint = "ends the paralysis" if g.para & b else f"{t.left} → {t.left + 1} hits left"
        others = [HEROES[j].name for j in range(4) if g.para & (1 << j) and j != i]
        if others:
            hint += f"; {' and '.join(others)}, still paralysed, then {'die' if len(others) > 1 else 'dies'}"
        out.append(Option(f"cure:{hero.key}", cure_words(i), hint, HERO_KEYS[hero.name]))
    return out


def give_cure(state: State, key: str, model: Model | None) -> None:
    """Spend the Paladin's cure on the hero called by ``key`` (``model``: the area's, if in one)."""
    i = D.HERO_KEYS.index(key)
    monster = model is not None
    if model is None:
        model = model_for(state, D.AREAS[0])  # between areas only the party's numbers matter
    if state.log.enabled:
        state.log.text(cure_words(i) + ".", under=monster)
    _apply(state, model, R.cure(model, snapshot(state, model, monster), i), monster=monster)


def fight(state: State, number: int) -> Engine:
    """One visit to an area: the webs, then rounds until the monster dies, the party dies or flees.

    Each request is asked through :func:`ask`: after a hand command (a hit marked by hand, a hero
    cured) it is built again from the table, or dropped where the table no longer calls for it."""
    g: Dungeon = state.game
    area = R.areas(state.data)[number]
    model = model_for(state, area)
    log = state.log
    g.area, g.round, g.last, g.hand = number, 0, number, None
    g.visits += 1
    visit = g.visits
    again = number in g.visited
    if not again:
        g.visited.append(number)
    sync(state, model)
    if log.enabled:
        log.heading(area.title + (" (again)" if again else ""))
        log.text(f"{area.monster}: {area.summary}; {area.hits} hits to slay.")
        if again:
            kept = area.says("It kept its", "They kept their")
            log.text(f"{kept} hits: {state.trackers.tallies[area.monster].book()}")

    def on() -> bool:
        return R.outcome(model, snapshot(state, model)) not in (R.SLAIN, R.WIPED)

    def web(h: int) -> Request | None:
        s = snapshot(state, model)
        return hero_request(model, h, R.magic(model, s, h), "web") if on() and R.web_rolls(model, s, h) else None

    def strike_first() -> Request | None:
        return first_choice(model) if on() and R.can_strike_first(model, snapshot(state, model)) else None

    def strike() -> Request | None:
        return hero_request(model, RANGERESS, False, "first") if strike_first() is not None else None

    def attacked(h: int) -> Request | None:
        return monster_request(model, h) if on() and R.alive(model, snapshot(state, model)) & (1 << h) else None

    def action() -> Request | None:
        return action_choice(state, model) if on() else None

    def attack(h: int) -> Request | None:
        s = snapshot(state, model)
        return hero_request(model, h, R.magic(model, s, h)) if on() and R.may_attack(model, s, h) else None

    if D.WEBS in area.rules:
        if log.enabled:
            log.line(f"v{visit}-webs", "The webs")
        for h in range(4):
            s = snapshot(state, model)
            if not R.alive(model, s) & (1 << h):
                continue
            if not R.web_rolls(model, s, h):
                _apply(state, model, R.web(model, s, h, False), "web", old=s)
                continue
            cast = R.magic(model, s, h)
            roll = yield from ask(lambda h=h: web(h))
            s = snapshot(state, model)
            if roll is not None and R.web_rolls(model, s, h):
                cut = R.hero_damage(model, h, roll.total, cast) > 0
                _apply(state, model, R.web(model, s, h, cut), "web", old=s)
    while True:
        s = snapshot(state, model)
        o = R.outcome(model, s)
        if o == R.SLAIN or o == R.WIPED:
            break
        g.round += 1
        _apply(state, model, R.begin_round(s), old=s)
        key = f"v{visit}-r{g.round}"
        if log.enabled:
            log.line(key, f"Round {g.round}")
        before = snapshot(state, model)
        # 1. The Rangeress may strike first.
        if R.can_strike_first(model, before):
            answer = yield from ask(strike_first)
            if answer == "strike":
                roll = yield from ask(strike)
                s = snapshot(state, model)
                if roll is not None and R.can_strike_first(model, s):
                    dmg = R.hero_damage(model, RANGERESS, roll.total, False)
                    _apply(state, model, R.hero_strikes(model, s, RANGERESS, dmg, False, True), old=s)
        # 2. The monster attacks.
        s = snapshot(state, model)
        if R.outcome(model, s) != R.SLAIN:
            for h in R.targets(model, s):
                s = snapshot(state, model)
                if not R.alive(model, s) & (1 << h):
                    continue
                roll = yield from ask(lambda h=h: attacked(h))
                s = snapshot(state, model)
                if roll is not None and R.alive(model, s) & (1 << h):
                    dmg = R.monster_damage(model, h, roll.total, s.sfirst)
                    _apply(state, model, R.monster_hits(model, s, h, dmg), old=s)
        s = snapshot(state, model)
        o = R.outcome(model, s)
        if o == R.SLAIN or o == R.WIPED:
            _summary(state, model, key, before)
            break
        # 3. Fight or flee (the Paladin may cure first).
        while True:
            answer = yield from ask(action)
            if answer is None or not answer.startswith("cure:"):
                break
            give_cure(state, answer.removeprefix("cure:"), model)
        if answer is None:  # the fight ended by hand meanwhile
            _summary(state, model, key, before)
            break
        if answer == "flee":
            _summary(state, model, key, before)
            _apply(state, model, R.flee(model, snapshot(state, model)), "flee")
            if log.enabled:
                log.close()
                t = state.trackers.tallies[area.monster]
                keeps = area.says("keeps its", "keep their")
                log.text(f"The party flees. The {area.monster} {keeps} hits: {t.book()}")
            g.area = None
            return
        for h in range(4):
            s = snapshot(state, model)
            if R.outcome(model, s) == R.SLAIN:
                break
            if not R.may_attack(model, s, h):
                continue
            cast = R.magic(model, s, h)
            roll = yield from ask(lambda h=h: attack(h))
            s = snapshot(state, model)
            if roll is not None and R.may_attack(model, s, h):
                dmg = R.hero_damage(model, h, roll.total, cast)
                _apply(state, model, R.hero_strikes(model, s, h, dmg, cast), old=s)
        _summary(state, model, key, before)
    # The fight is over.
    s = snapshot(state, model)
    _apply(state, model, R.leave(model, s), old=s)
    g.area = None
    if log.enabled:
        log.close()
    if R.outcome(model, s) == R.SLAIN:
        if number not in g.cleared:  # (a last hit marked by hand has cleared it already)
            g.cleared.append(number)
        if log.enabled:
            log.text(f"The {area.monster} {area.says('is', 'are')} slain.")
        yield from talisman(state)
    elif log.enabled:
        log.text("Every hero has fallen.")


def _summary(state: State, model: Model, key: str, before: Fight) -> None:
    """Give the round's log line a summary: the hits scored on each side."""
    if not state.log.enabled:
        return
    s = snapshot(state, model)
    parts = []
    for i, hero in enumerate(HEROES):
        d = s.hs[i] - before.hs[i]
        if d > 0:
            parts.append(f"{hero.name} takes {d}")
    if s.m > before.m:
        parts.append(f"the {model.area.monster} {model.area.says('takes', 'take')} {s.m - before.m}")
    state.log.update(key, f"Round {state.game.round}: " + ("; ".join(parts) if parts else "no hits"))


def action_choice(state: State, model: Model) -> Choice:
    """Step 3 of a round: fight on, or flee (with the cure offered first)."""
    s = snapshot(state, model)
    monster = model.area.monster
    options = []
    attackers = [HEROES[h].name for h in range(4) if R.may_attack(model, s, h)]
    live = R.alive(model, s)
    if not live & model.can_hit:
        pass  # no living hero can hurt it: the party can only flee
    elif attackers:
        options.append(
            Option("fight", "Fight on", ", ".join(attackers) + (" attacks" if len(attackers) == 1 else " attack"), "fi")
        )
    else:
        options.append(Option("fight", "Stay and fight", "no one can attack this round", "fi"))
    if model.flee_ok:
        area = model.area
        keeps = area.says("keeps its", "keep their")
        warn = [f"the {monster} {keeps} {hits_text(s.m)}" if s.m else f"the {monster} {area.says('is', 'are')} unhurt"]
        if R.FLEE_WITH_ALL not in model.variants:
            for i, hero in enumerate(HEROES):
                b = 1 << i
                if live & s.twine & b:
                    warn.append(f"{hero.name}, entwined, drowns")
                elif live & s.trap & b:
                    warn.append(f"{hero.name} is left in the webs")
        options.append(Option("flee", "Flee the area", "; ".join(warn), "fl"))
    options.extend(cure_options(state))
    if model.flee_ok:
        prompt = f"Round {state.game.round}: fight the {monster} or flee?"
    else:
        prompt = f"Round {state.game.round}: no one can leave until the {monster} {model.area.says('dies', 'die')}."
    if not live & model.can_hit:
        prompt = f"No one left can hurt the {monster}: the party must flee."
    return Choice("round.action", prompt, tuple(options))


def talisman(state: State) -> Engine:
    """After a kill: the 2d6 Talisman roll, unless it is found already or the last monster holds it."""
    ts = state.trackers.talisman
    if ts.found:
        return
    left = len(R.areas(state.data)) - (ts.kills + 1)  # after this kill (kills made at the table count too)
    log = state.log
    if ts.needs_roll(left):
        kill = ts.kills + 1
        if log.enabled:
            log.line(f"talisman-{kill}", f"Talisman search after kill {kill}")
        request = RollRequest("talisman", TALISMAN, f"Talisman search after kill {kill}")
        # After a hand command: asked again, unless the roll was made by hand (companion talisman).
        roll = yield from ask(lambda: request if state.trackers.talisman.kills < kill else None)
        ts = state.trackers.talisman
        if roll is None:
            return
        result = ts.after_kill(left, roll.total)
    else:
        result = ts.after_kill(left)
    if not log.enabled:
        return
    if result in ("found", "last"):
        held = "The last monster held the Talisman" if result == "last" else "A 12"
        log.text(f"{held}: the Holy Talisman of St. Cuthbert is found! Leave the dungeon.")
    elif result == "held":
        log.text("Not found. One monster is left: it holds the Talisman.")
    else:
        log.text(f"Not found. {left} monsters are left.")
    log.close()


def finish(state: State, how: str) -> None:
    """The end: the score (for a party that leaves with the Talisman), and the verdict of the book's chart."""
    g: Dungeon = state.game
    g.over = True
    live = living(state)
    survivors = bin(live).count("1")
    heroes, monsters, verdict = R.score(survivors, 4 - survivors)
    log = state.log
    if how == "won" and not R.victory(survivors):
        how = "pyrrhic"  # out with the Talisman, but three of the four are lost: not a victory
    if how == "won":
        state.finished = (
            f"won: {verdict} victory, {heroes} to {monsters}" if verdict else f"won, {heroes} to {monsters}"
        )
    elif how == "pyrrhic":
        state.finished = f"pyrrhic: out with the Talisman, but not a victory, {heroes} to {monsters}"
    elif how == "lost":
        state.finished = f"lost: every hero has fallen, 0 to {monsters}"
    else:
        state.finished = "abandoned: the party left without the Talisman"
    if not log.enabled:
        return
    if how in ("won", "pyrrhic"):
        log.heading("Out of the dungeon")
        names = ", ".join(h.name for i, h in enumerate(HEROES) if live & (1 << i))
        carry = "carry" if survivors > 1 else "carries"
        log.text(f"{names} {carry} the Holy Talisman of St. Cuthbert out of the dungeon.")
        log.text(
            f"Score: the heroes {heroes} ({survivors} × {D.HERO_POINTS}), the monsters {monsters} "
            f"({4 - survivors} × {D.MONSTER_POINTS})."
        )
        if how == "pyrrhic":
            log.text(verdict_words(survivors) + ".")
        elif verdict:
            log.text(f"Verdict: a {verdict} victory ({heroes} on the book's chart).")
    elif how == "lost":
        log.heading("The end of the party")
        log.text(f"Every hero has fallen. The monsters score {monsters}; the Talisman stays in the dungeon.")
    else:
        log.heading("The quest abandoned")
        log.text("The party leaves the dungeon without the Talisman; the quest is not over, so there is no score.")
    for hero in HEROES:
        if hero.key in g.fates:
            log.text(f"{hero.name} {g.fates[hero.key]}.")
