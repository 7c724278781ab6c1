"""A thread's plans: the Programs of the plan cache it ran and the one predicted next
(`planner.plan_traced`'s `plans`; lazy mode keeps one `Plans` per thread, `lazy_mode._State.plans`).

A loop body builds the same graphs step after step. Finding each evaluation's Program by hashing
its structure key and looking it up costs ~0.5 us for a 10-node chain (stubbed); the
Program predicted (the one that followed the last evaluation last time, else the last one again)
is confirmed instead by an equality test of the trace's entries against the ones it was planned
from, most of them the same objects (the C records append the predicted entries where equal:
`trace.Trace.expect`). A wrong prediction costs that test and the look-up, never a wrong Program:
the entries are the key.
"""

from __future__ import annotations

from ..nodecore import record_base as _record_base

__all__ = ["LastPlan", "Plans"]


class LastPlan(_record_base("LastPlanFields", ("ops", "pos", "prog", "table", "gen", "next"))):
    """A Program from the plan cache and the key it was found by (`ops`, the entries; `pos`, the
    outputs' positions), kept per thread (`Plans`): an evaluation whose structure is the one
    predicted finds it by comparing the trace's entries with these (equality, entry by entry;
    most are the same objects: `trace.Trace.expect`). `table`, `gen`: the plan cache it came
    from and its generation then (`planner.plan_traced` checks them); `next`: the one this
    thread evaluated after it last time (the prediction after it)."""

    __slots__ = ()  # (the fields are the base's: C members, or Python slots)

    def __init__(self, ops, pos, prog, table, gen):
        self.ops, self.pos, self.prog, self.table, self.gen, self.next = ops, pos, prog, table, gen, None


class Plans(_record_base("PlansFields", ("last", "predicted", "expect", "by_prog"))):
    """A thread's evaluations as the plan cache saw them: `last`, the LastPlan of its last
    evaluation; `predicted`, the one expected next (what followed `last` last time, else `last`
    again) and `expect`, its entries (`trace.Trace.expect`); one LastPlan per Program run (at
    most `KEEP`). A loop body of one structure, or of several in turn (two `with lazy():`
    blocks a step, a value read mid-body), finds each of its Programs without a look-up."""

    KEEP = 64
    __slots__ = ()

    def __init__(self):
        self.last = self.predicted = self.expect = None
        self.by_prog = {}

    def ran(self, prog, ops, pos, table, gen) -> None:
        """Note that this thread ran `prog`, found in the plan cache `table` (generation `gen`) by
        the key of `ops`, `pos` (`step` where the prediction held: `plan_traced` does it inline)."""
        lp = self.by_prog.get(prog)
        if lp is None or lp.table is not table or lp.gen != gen:
            if len(self.by_prog) >= self.KEEP:
                self.by_prog.clear()
            lp = self.by_prog[prog] = LastPlan(list(ops), pos, prog, table, gen)  # (a copy: `ops` is the trace's list)
        self.step(lp)

    def step(self, lp) -> None:
        """`lp` ran after `last`; what followed `lp` last time is predicted next."""
        last = self.last
        if last is not None:
            last.next = lp
        self.last = lp
        p = self.predicted = lp.next or lp
        self.expect = p.ops
