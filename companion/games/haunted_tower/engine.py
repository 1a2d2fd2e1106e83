"""``companion play`` for the Haunted Tower: a menu of what can happen at the table now.

The board, the stand-ups and the chits stay on the table; this engine asks for what the rules need
(rolls, who meets what, what a chit is) and applies :mod:`rules`, the same functions the one-shot
commands use. It yields requests and never rolls, prints or reads a clock.

Shape: a loop that reads the state fresh each time and asks the next thing:

- a roll-off for who goes first in progress → the 1d10 rolls;
- a fight in progress → its next step (initiative, the hero's decision, the monster's attack, the
  1d10 after a hit, the item the monster's player takes), unless the player stepped out to the menu;
- otherwise the table menu.

The game sets ``Game.refresh``: when a one-shot command changes the state while a request is
waiting, the engine receives ``REFRESH``, drops what it was asking, and asks again from the new state.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from companion.engine.requests import REFRESH, Choice, Number, Option, Request, Text, choice
from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower import view as V
from companion.games.haunted_tower.data.monsters import HITS, MONSTERS, SPECTER
from companion.games.haunted_tower.model import ITEM_USES, Bonus, Card, Item
from companion.games.haunted_tower.rules import climb as rules_climb
from companion.games.haunted_tower.rules import fights as rules_fights
from companion.games.haunted_tower.rules import heroes as rules_heroes
from companion.games.haunted_tower.rules import items as rules_items
from companion.games.haunted_tower.rules import lookup
from companion.games.haunted_tower.rules import numbers as rules_numbers
from companion.games.haunted_tower.rules import rolls as rules_rolls
from companion.games.haunted_tower.rules import score as rules_score
from companion.i18n import ngettext, possessive

if TYPE_CHECKING:
    from companion.engine.requests import Engine
    from companion.session.state import State

Step = Generator[Request, Any, Any]
NEW = "__new__"
BACK = "__back__"


class _Refreshed(Exception):
    """The state changed under a waiting request: start over from the fresh state."""


def ask(request: Request) -> Step:
    answer = yield request
    if answer is REFRESH:
        raise _Refreshed
    return answer


def play(state: State) -> Engine:
    away = False  # the player stepped out of a fight's turn to the table menu
    notes: tuple[str, ...] = ()
    while True:
        g = lookup.game(state)
        if state.finished or g.phase == "over":
            return
        try:
            if g.rolloff:
                yield from order_rolls(state)
            elif g.fight is not None and not away:
                away = (yield from fight_step(state)) == "menu"
            else:
                action = yield from ask(main_menu(state, notes))
                notes = ()
                if action == "back":
                    away = False
                else:
                    notes = (yield from run_action(state, action)) or ()
            if lookup.game(state).fight is None:
                away = False
        except _Refreshed:
            continue
        except InputError as exc:  # a rule refused a step (the state is unchanged)
            state.log.text(f"Not done: {exc.message}")


# ---- the table menu ----------------------------------------------------------------------------


def main_menu(state: State, notes: tuple[str, ...]) -> Choice:
    g = lookup.game(state)
    heroes = lookup.living(g)
    options: list[Option] = []
    info: list[str] = list(notes)
    if g.phase == "setup":
        info += D.setup_lines(len(g.heroes) if len(g.heroes) >= D.MIN_PLAYERS else None)
        if len(g.heroes) < D.MAX_PLAYERS:
            options.append(Option("hero", "Add a hero", f"{len(g.heroes)} so far; {D.MIN_PLAYERS} to {D.MAX_PLAYERS}"))
        if len(g.heroes) >= D.MIN_PLAYERS:
            options.append(Option("placement", "Roll 1d10: who places the first chit"))
            options.append(Option("start", "Start play: roll 1d10 for who moves first"))
        return Choice("menu", "Setting up the Haunted Tower", tuple(options), tuple(info))
    if g.fight is not None:
        f = g.fight
        options.append(Option("back", f"Back to the fight: {f.hero} vs the {MONSTERS[f.monster].name}"))
    else:
        options.append(Option("fight", "A hero meets a monster", "reveal a monster chit"))
    options.append(Option("item", "A hero takes a magic item"))
    if any(h.items for h in heroes):
        options.append(Option("items", "Drop, give or use an item"))
    if g.fight is None:
        options.append(Option("climb", "Climbing check"))
    if any(_can_trade(h) for h in heroes):
        options.append(Option("trade", "Trade monster chits to remove a −1 chit"))
    options.append(Option("hp", "Change a hero's HP by hand", "a potion, a correction"))
    for h in heroes:
        if h.held_round is not None:
            options.append(Option(f"moved:{h.name}", f"{h.name} has sat out the move the ghoul took"))
    if g.fight is None:
        options.append(Option("order", f"Roll 1d10: who goes first in round {g.round + 1}"))
    options.append(Option("score", "Score so far"))
    if len(g.heroes) < D.MAX_PLAYERS:
        options.append(Option("hero", "Add a hero"))
    options.append(Option("end", "End the game: final score"))
    prompt = f"Round {g.round}: what happens now?" if g.round else "What happens now?"
    return Choice("menu", prompt, tuple(options), tuple(info))


def _can_trade(hero: Any) -> bool:
    if not hero.minus:
        return False
    return any(sum(1 for c in hero.chits if c.back == pay) >= n for pay, n in D.TRADE_COST.items())


def run_action(state: State, action: str) -> Step:
    """One action from the table menu; returns lines to show with the next menu."""
    if action == "hero":
        yield from enter_hero(state)
    elif action == "placement":
        rules_heroes.start_rolloff(state, "placement")
    elif action in ("start", "order"):
        rules_heroes.start_rolloff(state, "round")
    elif action == "fight":
        yield from meet_monster(state)
    elif action == "item":
        hero = yield from pick_hero(state, "item.hero", "Who takes the item?")
        if hero:
            yield from take_item(state, hero)
    elif action == "items":
        yield from manage_items(state)
    elif action == "climb":
        yield from climb(state)
    elif action == "trade":
        yield from trade(state)
    elif action == "hp":
        yield from change_hp(state)
    elif action.startswith("moved:"):
        rules_heroes.moved(state, action.split(":", 1)[1])
    elif action == "score":
        return ("Score so far:", *V.score_lines(state))
    elif action == "end":
        sure = yield from ask(
            choice("end.confirm", "End the game now and add up the score?", ("end", "Yes, end it"), ("no", "No"))
        )
        if sure == "end":
            rules_score.finish(state, "the players ended it")
    return ()


def pick_hero(
    state: State, key: str, prompt: str, *, only: list[str] | None = None, hints: dict[str, str] | None = None
) -> Step:
    """Choose a living hero (or go back: returns "")."""
    heroes = [h for h in lookup.living(lookup.game(state)) if only is None or h.name in only]
    opts = [Option(h.name, h.name, (hints or {}).get(h.name, f"HP {h.hp}/{h.max_hp}")) for h in heroes]
    opts.append(Option(BACK, "← Back"))
    answer = yield from ask(Choice(key, prompt, tuple(opts)))
    return "" if answer == BACK else answer


# ---- who goes first ----------------------------------------------------------------------------


def order_rolls(state: State) -> Step:
    g = lookup.game(state)
    names = list(g.rolloff)
    purpose = g.rolloff_for
    faces = []
    for i, name in enumerate(names):
        info = ("Everyone rolls 1d10: the highest goes first; a tie at the top rolls again.",) if i == 0 else ()
        roll = yield from ask(rules_rolls.order_spec(name, purpose).request(info))
        faces.append(roll.faces[0])
    rules_heroes.order_roll(state, faces)


# ---- heroes ------------------------------------------------------------------------------------


def _known(state: State, prefix: str) -> list[str]:
    return sorted(k[len(prefix) :] for k, v in state.data.items() if k.startswith(prefix) and isinstance(v, dict))


def enter_hero(state: State) -> Step:
    g = lookup.game(state)
    playing = {h.name.lower() for h in g.heroes}
    known = [n for n in _known(state, "hero.") if n.lower() not in playing]
    name = NEW
    if known:
        opts = [Option(n, n, _card_hint(state.data[f"hero.{n}"])) for n in known]
        opts += [Option(NEW, "A new hero card (enter it once)"), Option(BACK, "← Back")]
        name = yield from ask(Choice("hero.card", "Which hero card?", tuple(opts)))
        if name == BACK:
            return
    if name != NEW:
        rules_heroes.add_hero(state, Card.from_data(name, state.data[f"hero.{name}"]))
        return
    card = yield from card_questions(state)
    if card.name.lower() in playing:
        state.log.text(f"Not done: {card.name} is already in this game.")
        return
    state.data[f"hero.{card.name}"] = card.to_data()
    rules_heroes.add_hero(state, card)


def _card_hint(data: dict[str, Any]) -> str:
    return f"speed {data.get('speed')}, HP {data.get('hp')}, Att {data.get('attack')}, AC {data.get('ac')}"


def card_questions(state: State) -> Step:
    """The hero card, typed once from the player's own card (kept in the catalogue)."""
    name = yield from ask(Text("data.hero.name", "The hero's name, as on the hero card"))
    where = f"on {possessive(name)} hero card"
    speed = yield from ask(Number("data.hero.speed", "Speed", 0, 30, where=where))
    hp = yield from ask(Number("data.hero.hp", "Hit points", 1, 99, where=where))
    attack = yield from ask(Number("data.hero.attack", "Attack number", -9, 30, where=where))
    ac = yield from ask(Number("data.hero.ac", "Armor class", 0, 40, where=where))
    ability = yield from ask(Text("data.hero.ability", "Special ability, as the card words it"))
    bonus = Bonus()
    fights = yield from ask(
        choice(
            "data.hero.bonus",
            "Does the ability change fights in a way companion should count?",
            ("no", "No (or only in ways the players handle)"),
            ("yes", "Yes: a bonus to attack, damage or AC, or attacks that count as magic, silver..."),
        )
    )
    if fights == "yes":
        bonus.attack = yield from ask(Number("data.hero.bonus.attack", "Attack bonus", -9, 9, where=where, default=0))
        bonus.damage = yield from ask(Number("data.hero.bonus.damage", "Damage bonus", -9, 9, where=where, default=0))
        bonus.ac = yield from ask(Number("data.hero.bonus.ac", "Armor class bonus", -9, 9, where=where, default=0))
        bonus.vs = yield from ask(
            choice("data.hero.bonus.vs", "Against", ("all", "Every monster"), ("undead", "Undead monsters only"))
        )
        bonus.hits = yield from toggles(
            "data.hero.bonus.hits", f"{possessive(name)} own attacks count as (pick each, then Done)", [], list(HITS)
        )
    limits = dict(D.LIMITS)
    rule = yield from ask(
        choice(
            "data.hero.limits",
            "Item limits",
            ("rules", "1 armor, 2 weapons, 1 shield (the rules)"),
            ("card", "The card says otherwise"),
        )
    )
    if rule == "card":
        for kind, label in (("armor", "Armor chits"), ("weapon", "Weapon chits"), ("shield", "Shield chits")):
            limits[kind] = yield from ask(
                Number(f"data.hero.limits.{kind}", f"{label} {name} may carry", 0, 9, where=where)
            )
    return Card(name, speed, hp, attack, ac, ability, bonus, limits)


def toggles(key: str, prompt: str, chosen: list[str], names: list[str]) -> Step:
    """Tick words on and off from a list (one Choice per tick), until Done."""
    picked = list(chosen)
    while True:
        opts = [Option(n, ("☑ " if n in picked else "☐ ") + HITS.get(n, n)) for n in names]
        opts.append(Option("done", "Done"))
        answer = yield from ask(Choice(key, prompt, tuple(opts)))
        if answer == "done":
            return [n for n in names if n in picked]
        if answer in picked:
            picked.remove(answer)
        else:
            picked.append(answer)


# ---- items -------------------------------------------------------------------------------------


def take_item(state: State, hero_name: str) -> Step:
    known = _known(state, "item.")
    opts = [Option(n, n, Item.from_data(n, state.data[f"item.{n}"]).describe()) for n in known]
    opts += [Option(NEW, "A new item chit (enter it once)"), Option(BACK, "← Back")]
    name = yield from ask(Choice("item.which", "Which item chit?", tuple(opts)))
    if name == BACK:
        return
    if name == NEW:
        item = yield from item_questions(state)
    else:
        item = Item.from_data(name, state.data[f"item.{name}"])
        other = "purple" if item.back == "blue" else "blue"
        item.back = yield from ask(
            choice("item.back", "Its back?", (item.back, f"{item.back.capitalize()}"), (other, other.capitalize()))
        )
    hero = lookup.find_hero(lookup.game(state), hero_name)
    swap = ""
    if rules_items.over_limit(hero, item.kind):
        same = [i for i in hero.items if i.kind == item.kind]
        opts = [Option("leave", "Leave the new chit where it is")]
        opts += [Option(f"swap:{i.name}", f"Take it and drop {i.name}", i.describe()) for i in same]
        answer = yield from ask(
            Choice("item.swap", f"{hero.name} already carries as many {item.kind} chits as allowed", tuple(opts))
        )
        if answer == "leave":
            state.log.text(f"{hero.name} leaves {item.name} where it is.")
            return
        swap = answer.split(":", 1)[1]
    rules_items.take_item(state, hero.name, item, swap)


def item_questions(state: State) -> Step:
    """A magic item chit, typed once from the chit (kept in the catalogue)."""
    name = yield from ask(Text("data.item.name", "The item's name, as on the chit"))
    kind = yield from ask(
        Choice("data.item.kind", "What kind of chit?", tuple(Option(k, v) for k, v in D.ITEM_KINDS.items()))
    )
    back = yield from ask(choice("data.item.back", "Its back?", ("blue", "Blue"), ("purple", "Purple")))
    where = f"on the {name} chit (0 if none)"
    attack = yield from ask(Number("data.item.attack", "Attack bonus", -9, 20, where=where, default=0))
    damage = yield from ask(Number("data.item.damage", "Damage bonus", -9, 20, where=where, default=0))
    ac = yield from ask(Number("data.item.ac", "Armor class bonus", -9, 20, where=where, default=0))
    metal = yield from ask(
        choice(
            "data.item.metal",
            "Is it metal? (the rust monster ignores and eats metal; the staff and the ring of protection are not)",
            ("no", "No"),
            ("yes", "Yes, metal"),
        )
    )
    start = ["magical"] if kind == "weapon" else []
    hits = yield from toggles("data.item.hits", "An attack with it counts as (pick each, then Done)", start, list(HITS))
    use = {"weapon": "attack", "armor": "worn", "shield": "worn"}.get(kind, "")
    if not use:
        use = yield from ask(
            Choice("data.item.use", "How is it used?", tuple(Option(k, v) for k, v in ITEM_USES.items()))
        )
    uses = yield from ask(
        Number("data.item.uses", "Limited uses shown on the chit", 0, 99, where="0 if not limited", default=0)
    )
    item = Item(name, kind, back, attack, damage, ac, metal == "yes", hits, use, uses or None)
    rules_items.check_item(item)
    state.data[f"item.{name}"] = item.to_data()
    return item


def manage_items(state: State) -> Step:
    g = lookup.game(state)
    with_items = [h.name for h in lookup.living(g) if h.items]
    hero_name = yield from pick_hero(state, "items.hero", "Whose item?", only=with_items)
    if not hero_name:
        return
    hero = lookup.find_hero(g, hero_name)
    opts = [Option(i.name, i.name, i.describe()) for i in hero.items] + [Option(BACK, "← Back")]
    name = yield from ask(Choice("items.item", f"Which of {possessive(hero.name)} items?", tuple(opts)))
    if name == BACK:
        return
    item = lookup.find_item(hero, name)
    acts = [Option("drop", "Drop it in an adjacent square")]
    acts += [Option(f"give:{h.name}", f"Give it to {h.name}") for h in lookup.living(g) if h is not hero]
    if item.left is not None:
        acts.append(
            Option("use", "Use it once", ngettext("{n} use left", "{n} uses left", item.left).format(n=item.left))
        )
    acts.append(Option(BACK, "← Back"))
    act = yield from ask(Choice("items.action", f"{item.name}:", tuple(acts)))
    if act == "drop":
        rules_items.drop_item(state, hero.name, item.name)
    elif act.startswith("give:"):
        rules_items.give_item(state, hero.name, item.name, act.split(":", 1)[1])
    elif act == "use":
        rules_items.use_item(state, hero.name, item.name)


# ---- climbing, trading, HP ---------------------------------------------------------------------


def climb(state: State) -> Step:
    g = lookup.game(state)
    below_top = [h for h in lookup.living(g) if h.tower < D.TOWERS]
    hints = {h.name: rules_climb.climb_check(h).text().split(": ", 1)[-1] for h in below_top}
    name = yield from pick_hero(state, "climb.hero", "Who wants to climb?", only=list(hints), hints=hints)
    if not name:
        return
    hero = lookup.find_hero(g, name)
    check = rules_climb.climb_check(hero)
    if check.ok:
        rules_climb.climb(state, hero.name)
        return
    answer = yield from ask(
        choice(
            "climb.cleared",
            check.text(),
            ("stay", f"{hero.name} stays in Tower {hero.tower}"),
            ("cleared", f"Every chit of Tower {hero.tower} is gone: climb anyway"),
        )
    )
    if answer == "cleared":
        rules_climb.climb(state, hero.name, cleared=True)
    else:
        state.log.text(check.text())


def trade(state: State, only: str = "") -> Step:
    g = lookup.game(state)
    able = [h.name for h in lookup.living(g) if _can_trade(h) and (not only or h.name == only)]
    name = only or (yield from pick_hero(state, "trade.hero", "Who trades chits in?", only=able))
    if not name:
        return
    hero = lookup.find_hero(g, name)
    opts = []
    for pay, n in D.TRADE_COST.items():
        have = [c for c in hero.chits if c.back == pay]
        if len(have) >= n:
            names = ", ".join(MONSTERS[c.monster].name for c in have[:n])
            opts.append(Option(pay, f"{n} {pay} monster chit{'s' if n > 1 else ''}", names))
    opts.append(Option(BACK, "← Back"))
    pay = yield from ask(Choice("trade.pay", f"{hero.name} trades in, to remove a −1 chit:", tuple(opts)))
    if pay != BACK:
        rules_climb.trade(state, hero.name, pay)


def change_hp(state: State) -> Step:
    name = yield from pick_hero(state, "hp.hero", "Whose HP?")
    if not name:
        return
    hero = lookup.find_hero(lookup.game(state), name)
    delta = yield from ask(
        Number(
            "hp.change",
            f"Change {possessive(hero.name)} HP by (e.g. 2 or -1)",
            -99,
            99,
            where=f"now {hero.hp}/{hero.max_hp}",
        )
    )
    if delta:
        rules_items.change_hp(state, hero.name, delta)


# ---- fights ------------------------------------------------------------------------------------


def meet_monster(state: State) -> Step:
    g = lookup.game(state)
    name = yield from pick_hero(state, "fight.hero", "Which hero meets a monster?")
    if not name:
        return
    # The listing numbers its first eleven monsters and bullets the rest: one list each, so a
    # list fits a 24-line terminal.
    numbered = [m for m in MONSTERS.values() if m.listed]
    # The specter's chit lies only in Tower 3's rooms, until it is killed.
    specter = not g.specter_dead and lookup.find_hero(g, name).tower == D.SPECTER_TOWER
    rest = [m for m in MONSTERS.values() if not m.listed and (m.key != SPECTER or specter)]
    group = yield from ask(
        choice(
            "fight.group",
            f"What does {name} reveal?",
            ("numbered", f"{numbered[0].name} … {numbered[-1].name}"),
            ("rest", f"{rest[0].name} … {rest[-1].name}" + (" (and the specter)" if specter else "")),
            (BACK, "← Back"),
        )
    )
    if group == BACK:
        return
    opts = []
    for m in numbered if group == "numbered" else rest:
        hint = f"HP {m.hp} Att {m.att} AC {m.ac}" + (
            ", undead" if rules_numbers.is_undead(m, state.meta.variants) else ""
        )
        opts.append(Option(m.key, m.name, hint))
    opts.append(Option(BACK, "← Back"))
    key = yield from ask(Choice("fight.monster", f"What does {name} reveal?", tuple(opts)))
    if key == BACK:
        return
    back = "purple"
    if key != SPECTER:
        back = yield from ask(choice("fight.back", "The chit's back?", ("blue", "Blue"), ("purple", "Purple")))
    rules_fights.start_fight(state, name, key, back)


def fight_step(state: State) -> Step:
    """The fight's next step; returns "menu" when the player steps out to the table menu."""
    n = rules_rolls.need(state)
    assert n is not None
    if n.step == "initiative":
        hero_spec, monster_spec = n.rolls
        h = yield from ask(hero_spec.request((V.initiative_hint(state),)))
        m = yield from ask(monster_spec.request())
        rules_fights.initiative(state, h.faces[0], m.faces[0])
    elif n.step == "monster":
        roll = yield from ask(n.rolls[0].request((V.monster_hint(state),)))
        rules_fights.monster_attack(state, roll.faces[0])
    elif n.step == "table":
        roll = yield from ask(n.rolls[0].request())
        rules_fights.table_roll(state, roll.faces[0])
    elif n.step == "pick":
        f, hero, monster = lookup.fighting(state)
        what = "eats (a metal item)" if f.pick == "rust" else "takes"
        opts = tuple(Option(i, i, lookup.find_item(hero, i).describe()) for i in n.items)
        item = yield from ask(Choice("fight.pick", f"The {monster.name}'s player chooses what it {what}", opts))
        rules_fights.pick(state, item)
    else:
        return (yield from hero_turn(state))
    return None


def hero_turn(state: State) -> Step:
    f, hero, monster = lookup.fighting(state)
    opts = [
        Option(
            "attack:",
            "Attack" if not rules_numbers.attack_means(hero) else "Attack without an item",
            V.attack_hint(state, None),
        )
    ]
    for item in rules_numbers.attack_means(hero):
        opts.append(Option(f"attack:{item.name}", f"Attack with {item.name}", V.attack_hint(state, item)))
    # The attack the whole-fight odds are shown for (the best chance to win) comes first, as the one-shot
    # ``companion haunted attack`` takes it by default.
    best = V.best_weapon(state, hero, monster)
    opts.sort(key=lambda o: o.value != f"attack:{best.name if best else ''}")
    opts.append(Option("run", "Run away", V.run_hint(state)))
    if _can_trade(hero):
        opts.append(Option("trade", "Trade monster chits to remove a −1 chit"))
    opts.append(Option("menu", "Other table actions (the fight waits)"))
    prompt = (
        f"Round {f.round}: {possessive(hero.name)} turn against the {monster.name} (HP {max(0, f.hp)}/{monster.hp})"
    )
    # The whole-fight odds are shown through Game.advise, computed only when a person looks.
    answer = yield from ask(Choice("fight.turn", prompt, tuple(opts)))
    if answer == "menu":
        return "menu"
    if answer == "trade":
        yield from trade(state, only=hero.name)
    elif answer == "run":
        roll = yield from ask(rules_rolls.run_spec(state).request())
        rules_fights.run_away(state, roll.faces[0])
    else:
        weapon = answer.split(":", 1)[1]
        roll = yield from ask(rules_rolls.attack_spec(state, weapon).request())
        rules_fights.hero_attack(state, weapon, roll.faces[0])
    return None
