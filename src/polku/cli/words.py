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
    from polku.rules.shadowrun import ExtendedTest, OpposedResult, SRRoll, SuccessResult


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

        return _("Rajapolku: {outcome}", outcome=raja_words(result))
    return "Rajapolku: " + raja_words(result)


def raja_words(result: RajaResult) -> str:
    """Who won a Rajapolku challenge and by how much: :func:`raja_headline`'s words after its name."""
    if not _english():
        from polku.session import telling

        return telling.raja_outcome(telling.raja_fact(result, "A", "B"))
    return raja_outcome(result, "A", "B")


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
    if not _english():
        from polku.i18n import _

        return _("Shadowrun: {parts}", parts=sr_roll_words(result))
    return "Shadowrun: " + sr_roll_words(result)


def sr_roll_words(result: SRRoll | SuccessResult) -> str:
    """What a roll came to (hits, a glitch, the threshold's verdict), the headline's words after its name."""
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
        return ", ".join(told)
    parts = [plural(roll.hits, "hit")]
    if roll.critical_glitch:
        parts.append(glitch_words(roll.hits, True, loud=True))
    elif roll.glitch:
        parts.append(glitch_words(roll.hits))
    if isinstance(result, SuccessResult):
        verdict = f"success, {plural(result.net_hits, 'net hit')}" if result.success else "failure"
        parts.append(f"threshold {result.threshold}: {verdict}")
    return ", ".join(parts)


def sr_extended_lines(test: ExtendedTest, *, thresholds: bool) -> list[str]:
    """An extended test's headline and one line per interval (S10); ``thresholds``: each interval's threshold
    and whether it was hurried are named too (``resolve``, where they may differ)."""
    rolls = test.history
    if not _english():
        from polku.i18n import _, ngettext
        from polku.rules.shadowrun import EXTENDED_STATUS

        status = _(EXTENDED_STATUS.get(test.status, test.status))
        lines = [ngettext("Shadowrun extended: {accumulated}/{threshold} hits after {n} interval — {status}",
                          "Shadowrun extended: {accumulated}/{threshold} hits after {n} intervals — {status}",
                          test.intervals, accumulated=test.accumulated, threshold=test.threshold, status=status)]
        for i, r in enumerate(rolls):
            values = {"i": i + 1, "roll": sr_roll_words(r), "threshold": test.interval_thresholds[i]}
            lines.append("  " + (_("interval {i}: {roll}", **values) if not thresholds
                                 else _("interval {i} (threshold {threshold}, hurried): {roll}", **values) if r.hurried
                                 else _("interval {i} (threshold {threshold}): {roll}", **values)))
        return lines
    lines = [f"Shadowrun extended: {test.accumulated}/{test.threshold} hits after "
             f"{plural(test.intervals, 'interval')} — {test.status}"]
    for i, r in enumerate(rolls):
        where = f" (threshold {test.interval_thresholds[i]}{', hurried' if r.hurried else ''})" if thresholds else ""
        lines.append(f"  interval {i + 1}{where}: {sr_roll_words(r)}")
    return lines


def helpers_line(hits: list[int], bonus: int, *, capped: bool) -> str:
    """Teamwork's line (S11): each helper's hits and the dice they give the leader, capped or not."""
    shown = ", ".join(map(str, hits))
    if not _english():
        from polku.i18n import ngettext

        if capped:
            return "  " + ngettext("helpers' hits: {hits} → +{n} die for the leader (capped at the leader's skill, "
                                   "sr.teamwork_cap) (S11)", "helpers' hits: {hits} → +{n} dice for the leader (capped "
                                   "at the leader's skill, sr.teamwork_cap) (S11)", bonus, hits=shown)
        return "  " + ngettext("helpers' hits: {hits} → +{n} die for the leader (S11)",
                               "helpers' hits: {hits} → +{n} dice for the leader (S11)", bonus, hits=shown)
    tail = " (capped at the leader's skill, sr.teamwork_cap)" if capped else ""
    return f"  helpers' hits: {shown} → +{bonus} dice for the leader{tail} (S11)"


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
    if not _english():
        from polku.i18n import _

        return _("spirit combat: {loss}", loss=spirit_loss(step))
    return "spirit combat: " + spirit_loss(step)


def spirit_loss(step: SpiritExchange) -> str:
    """What an exchange of spirit combat cost (R11): :func:`spirit_line`'s words after its name."""
    f = step.fight
    if not _english():
        from polku.i18n import _, ngettext

        if step.loser is None:
            return _("a full tie costs nothing (A {a}, B {b} charges) (R11)", a=f.a_charges, b=f.b_charges)
        if f.over:
            return ngettext("{loser} loses {n} charge, the winner nothing (A {a}, B {b} left; the fight "
                            "is over) (R11)", "{loser} loses {n} charges, the winner nothing (A {a}, "
                            "B {b} left; the fight is over) (R11)", step.loss, loser=step.loser.upper(),
                            a=f.a_charges, b=f.b_charges)
        return ngettext("{loser} loses {n} charge, the winner nothing (A {a}, B {b} left) (R11)",
                        "{loser} loses {n} charges, the winner nothing (A {a}, B {b} left) (R11)",
                        step.loss, loser=step.loser.upper(), a=f.a_charges, b=f.b_charges)
    if step.loser is None:
        return f"a full tie costs nothing (A {f.a_charges}, B {f.b_charges} charges) (R11)"
    end = "; the fight is over" if f.over else ""
    return (f"{step.loser.upper()} loses {plural(step.loss, 'charge')}, the winner nothing "
            f"(A {f.a_charges}, B {f.b_charges} left{end}) (R11)")


def harha_demand(result: HarhaResult | SumResult, needed: int, out: dict[str, Any], head: str) -> tuple[str, list[str]]:
    """H8 on an opposed roll: the JSON part, the headline ``head`` with the action's verdict (one line) and the
    explanation."""
    from polku.rules import harhapolku

    d = harhapolku.difficult_opposed(result, needed == 2)
    out["difficult"] = {"success": d.success, "high": d.high, "needed": d.needed,
                        "won_comparison": d.won_comparison, "tie": d.tie}
    out["explain"] = explain = d.explain()
    if not _english():
        from polku.i18n import _

        verdict = _("a tie, reroll") if d.tie else _("success") if d.success else _("failure")
        values = {"headline": head, "verdict": verdict, "high": d.high, "needed": d.needed}
        return ((_("{headline}; very demanding: {verdict} ({high} of {needed} needed 7+)", **values) if needed == 2
                 else _("{headline}; difficult: {verdict} ({high} of {needed} needed 7+)", **values)), explain)
    kind = "very demanding" if needed == 2 else "difficult"
    verdict = "a tie, reroll" if d.tie else "success" if d.success else "failure"
    return f"{head}; {kind}: {verdict} ({d.high} of {d.needed} needed 7+)", explain


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
