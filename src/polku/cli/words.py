"""How the headless verbs word an outcome: headlines, odds lines and bars."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polku.cli.common import (
    BAR_WIDTH,
)
from polku.rules.shadowrun import glitch_words
from polku.text import die_typed, percent, raja_outcome, split_bar

if TYPE_CHECKING:
    from typing import Any

    from polku.rules.dice import Die
    from polku.rules.harhapolku import HarhaResult, SumResult
    from polku.rules.rajapolku import RajaResult, SpiritExchange
    from polku.rules.shadowrun import OpposedResult, SRRoll, SuccessResult


def told(line: str) -> str:
    """An explanation line in the user's language (POLKU_LANG, the locale): English as the rules core made it (the
    words scripts read, byte for byte), else told from the step it keeps (``rules.explain``)."""
    from polku import i18n

    if i18n.language() == i18n.DEFAULT:
        return line
    from polku.session.telling import line_text

    return line_text(line)


def side_name(side: str, variant: str | None = None) -> str:
    if variant in ("ch23", "same_size", "sum"):
        return {"a": "A (actor)", "b": "B (challenger)"}.get(side, side)
    return {"a": "A", "b": "B"}.get(side, side)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _english() -> bool:
    """Whether the user reads English: then every line is worded exactly as before (what scripts parse)."""
    from polku import i18n

    return i18n.language() == i18n.DEFAULT


def raja_headline(result: RajaResult) -> str:
    if not _english():
        from polku.i18n import _
        from polku.session import telling

        return _("Rajapolku: {outcome}", outcome=telling.raja_outcome(telling.raja_fact(result, "A", "B")))
    return "Rajapolku: " + raja_outcome(result, "A", "B")


def harha_headline(result: HarhaResult) -> str:
    if not _english():
        from polku.i18n import _

        if result.winner == "tie":
            return _("Harhapolku ({variant}): tie {a} to {b} — reroll", variant=result.variant, a=result.a_positions,
                     b=result.b_positions)
        if result.variant in ("ch23", "same_size", "sum"):
            name = _("A (actor)") if result.winner == "a" else _("B (challenger)")
        else:
            name = result.winner.upper()
        return _("Harhapolku ({variant}): {name} wins, positions A {a} – B {b}", variant=result.variant, name=name,
                 a=result.a_positions, b=result.b_positions)
    if result.winner == "tie":
        return f"Harhapolku ({result.variant}): tie {result.a_positions} to {result.b_positions} — reroll"
    name = side_name(result.winner, result.variant)
    return (f"Harhapolku ({result.variant}): {name} wins, positions "
            f"A {result.a_positions} – B {result.b_positions}")


def sr_headline(result: SRRoll | SuccessResult) -> str:
    from polku.rules.shadowrun import SuccessResult

    roll = result.roll if isinstance(result, SuccessResult) else result
    if not _english():
        from polku.i18n import _, ngettext
        from polku.session import telling

        told = [telling.hits_words(roll.hits)]
        if roll.critical_glitch:
            told.append(telling.glitch_words(roll.hits, "critical", loud=True))
        elif roll.glitch:
            told.append(telling.glitch_words(roll.hits, "glitch"))
        if isinstance(result, SuccessResult):
            verdict = (ngettext("success, {n} net hit", "success, {n} net hits", result.net_hits) if result.success
                       else _("failure"))
            told.append(_("threshold {threshold}: {verdict}", threshold=result.threshold, verdict=verdict))
        return _("Shadowrun: {parts}", parts=", ".join(told))
    parts = [plural(roll.hits, "hit")]
    if roll.critical_glitch:
        parts.append(glitch_words(roll.hits, True, loud=True))
    elif roll.glitch:
        parts.append(glitch_words(roll.hits))
    if isinstance(result, SuccessResult):
        verdict = f"success, {plural(result.net_hits, 'net hit')}" if result.success else "failure"
        parts.append(f"threshold {result.threshold}: {verdict}")
    return "Shadowrun: " + ", ".join(parts)


def sr_opposed_headline(result: OpposedResult) -> str:
    if not _english():
        from polku.i18n import _, ngettext
        from polku.session import telling

        said = "".join(_("; {side} {glitch}", side=side, glitch=telling.glitch_words(
            r.hits, "critical" if r.critical_glitch else "glitch", loud=r.critical_glitch))
            for side, r in (("A", result.a), ("B", result.b)) if r.glitch or r.critical_glitch)
        if result.winner == "tie":
            return _("Shadowrun opposed: tie (stalemate); if a winner is needed, B (defender) wins{glitches}",
                     glitches=said)
        return ngettext("Shadowrun opposed: {winner} wins with {n} net hit{glitches}",
                        "Shadowrun opposed: {winner} wins with {n} net hits{glitches}", result.net_hits,
                        winner=result.winner.upper(), glitches=said)
    glitches = "".join(f"; {side} {glitch_words(r.hits, r.critical_glitch, loud=r.critical_glitch)}"
                       for side, r in (("A", result.a), ("B", result.b)) if r.glitch or r.critical_glitch)
    if result.winner == "tie":
        return "Shadowrun opposed: tie (stalemate); if a winner is needed, B (defender) wins" + glitches
    return f"Shadowrun opposed: {result.winner.upper()} wins with {plural(result.net_hits, 'net hit')}" + glitches


def sr_json(result: SRRoll | SuccessResult | OpposedResult) -> dict[str, Any]:
    from polku.rules import shadowrun

    out: dict[str, Any] = {"system": "shadowrun"}
    out.update(shadowrun.result_json(result))
    out["explain"] = shadowrun.explain(result)
    return out


# --------------------------------------------------------------------------- settings


def spirit_line(step: SpiritExchange) -> str:
    f = step.fight
    if not _english():
        from polku.i18n import _, ngettext

        if step.loser is None:
            return _("spirit combat: a full tie costs nothing (A {a}, B {b} charges) (R11)", a=f.a_charges, b=f.b_charges)
        if f.over:
            return ngettext("spirit combat: {loser} loses {n} charge, the winner nothing (A {a}, B {b} left; the fight "
                            "is over) (R11)", "spirit combat: {loser} loses {n} charges, the winner nothing (A {a}, "
                            "B {b} left; the fight is over) (R11)", step.loss, loser=step.loser.upper(),
                            a=f.a_charges, b=f.b_charges)
        return ngettext("spirit combat: {loser} loses {n} charge, the winner nothing (A {a}, B {b} left) (R11)",
                        "spirit combat: {loser} loses {n} charges, the winner nothing (A {a}, B {b} left) (R11)",
                        step.loss, loser=step.loser.upper(), a=f.a_charges, b=f.b_charges)
    if step.loser is None:
        return f"spirit combat: a full tie costs nothing (A {f.a_charges}, B {f.b_charges} charges) (R11)"
    end = "; the fight is over" if f.over else ""
    return (f"spirit combat: {step.loser.upper()} loses {plural(step.loss, 'charge')}, the winner nothing "
            f"(A {f.a_charges}, B {f.b_charges} left{end}) (R11)")


def harha_demand(result: HarhaResult | SumResult, needed: int, out: dict[str, Any]) -> tuple[str, list[str]]:
    """H8 on an opposed roll: the JSON part, the headline's tail and the explanation."""
    from polku.rules import harhapolku

    d = harhapolku.difficult_opposed(result, needed == 2)
    out["difficult"] = {"success": d.success, "high": d.high, "needed": d.needed,
                        "won_comparison": d.won_comparison, "tie": d.tie}
    out["explain"] = explain = d.explain()
    if not _english():
        from polku.i18n import _

        verdict = _("a tie, reroll") if d.tie else _("success") if d.success else _("failure")
        values = {"verdict": verdict, "high": d.high, "needed": d.needed}
        return ((_("; very demanding: {verdict} ({high} of {needed} needed 7+)", **values) if needed == 2
                 else _("; difficult: {verdict} ({high} of {needed} needed 7+)", **values)), explain)
    kind = "very demanding" if needed == 2 else "difficult"
    verdict = "a tie, reroll" if d.tie else "success" if d.success else "failure"
    return f"; {kind}: {verdict} ({d.high} of {d.needed} needed 7+)", explain


def harha_sum_headline(result: SumResult) -> str:
    if not _english():
        from polku.i18n import _

        name = _("A (actor)") if result.winner == "a" else _("B (challenger)")
        return _("Harhapolku (sum): {name} wins, totals A {a} – B {b}", name=name, a=result.a_total, b=result.b_total)
    who = side_name(result.winner, "sum")
    return f"Harhapolku (sum): {who} wins, totals A {result.a_total} – B {result.b_total}"


def glyph(d: Die) -> str:
    return die_typed(d.face, d.is_ability)


def bar(p: float, width: int = BAR_WIDTH) -> str:
    return split_bar([(p, "█"), (1 - p, "░")], width)


def pct_line(label: str, p: float, width: int = 16) -> str:
    return f"  {label:<{width}} {percent(p, 3):>9}  {bar(p)}"


def harha_pool_text(p: tuple[int, int]) -> str:
    parts = [f"{n}d{s}" for n, s in ((p[0], 8), (p[1], 10)) if n]
    from polku.i18n import _

    return "+".join(parts) or _("no dice")
