//! The fight loop: rounds, turn order, end of fight, round cap, tallying.
//!
//! [`Fight`] is the reusable workspace (rapier-style: parameters in the
//! [`Encounter`], state here, nothing allocated per step). Its start state is
//! prepared once per batch and copied back at the start of every fight.
//! Rulesets see a fight through [`Turn`], which also carries the shared
//! services: distances, targeting, harm bookkeeping and counters.

use super::ground::{self, Ground, Scratch};
use super::initiative::{insert_by_key, shuffle_ties, sort_by_keys};
use super::observe::{EndCause, Event, Observer, Track, Watched, NOBODY};
use super::{
    Condition, Conditions, Cover, Encounter, InitiativeKind, InitiativeRoll, Opening, Tally,
    Targeting, Ties, UnitSpec, MAX_COUNTERS, MAX_ROUNDS, MAX_SIDES, MAX_UNITS,
};
use crate::dice::Dice;
use crate::map::{Metric, Square, SquareSet, UNREACHABLE};
use crate::rules::{Quick, Ruleset};

const NO_FOCUS: u8 = u8::MAX;

/// One unit during a fight: the shared fields the engine manages plus the
/// ruleset's own state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Combatant<S> {
    pub side: u8,
    /// Out of the fight (down, dead, fled): never acts, never targeted, does
    /// not count for its side. Change it only through [`Turn::take_out`] and
    /// [`Turn::bring_back`], which keep the side counts right.
    pub out: bool,
    /// Place on the one-dimensional front, in the ruleset's unit: the front
    /// line is 0, even-numbered sides start behind it on the negative side
    /// and face +, odd-numbered sides on the positive side facing −.
    pub position: i32,
    pub cover: Cover,
    pub conditions: Conditions,
    /// Out of the fight but still given turns (a dying unit rolling death
    /// saves, say). Set and cleared by the ruleset.
    pub lingering: bool,
    pub state: S,
}

impl<S> Combatant<S> {
    /// Takes turns: in the fight, or out of it but lingering.
    #[inline]
    pub fn takes_turns(&self) -> bool {
        !self.out || self.lingering
    }
}

/// How a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The side left standing; `None` for a draw (round cap, or nobody left).
    pub winner: Option<u8>,
    /// Rounds fought (the round in which the fight ended).
    pub rounds: u32,
}

/// Where a round stands: which unit's turn comes next. The fight loop
/// keeps one per round; the exact engine keeps one with every fight state
/// it holds between two turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RoundCursor {
    /// The next place in the turn order to look at (under team-alternating
    /// activation, once `leftovers`).
    next: u8,
    /// Team-alternating activation: the side to look at first for the next
    /// activation.
    side: u8,
    /// Team-alternating activation: activations have run out; the units
    /// that have not had their turn get it, in turn order.
    leftovers: bool,
    /// Team-alternating activation: units that have had their turn this
    /// round.
    acted: u64,
}

/// The reusable state of one fight.
#[derive(Clone, Copy, Debug)]
pub struct Fight<R: Ruleset> {
    pub units: [Combatant<R::State>; MAX_UNITS],
    /// The round being fought, from 1.
    pub round: u32,
    /// Harm dealt per side this fight (hit points removed, or the ruleset's
    /// own harm unit).
    pub damage: [u32; MAX_SIDES],
    /// The ruleset's counters this fight, in `R::COUNTERS` order.
    pub counters: [u32; MAX_COUNTERS],
    standing: [u8; MAX_SIDES],
    /// Sides with a unit standing: the fight is over when this drops to 1.
    sides_standing: u8,
    /// Bit `i` set: unit `i` is in the fight (`!units[i].out`).
    in_fight: u64,
    /// Bit `i` of `side_units[s]` set: unit `i` is on side `s`.
    side_units: [u64; MAX_SIDES],
    focus: [u8; MAX_SIDES],
    /// The side that opens every round of this fight under team-
    /// alternating activation ([`Opening`]).
    opening: u8,
    /// Units in this fight (`units[..n]`).
    n: usize,
    order: [u8; MAX_UNITS],
    keys: [InitiativeRoll; MAX_UNITS],
    /// The state every fight of the encounter starts from, built once by
    /// [`Fight::prepare`]: starting a fight is then a copy, not a rebuild.
    start: Start<R::State>,
    /// What a watched fight's observer last heard of each unit; untouched
    /// unless the dice are watched.
    seen: Seen,
}

/// The units' shared state as last reported to an observer: comparing with
/// it finds movement, conditions and units going out or coming back, which
/// rulesets change directly, without any ruleset reporting them.
#[derive(Clone, Copy, Debug)]
struct Seen {
    position: [i32; MAX_UNITS],
    conditions: [Conditions; MAX_UNITS],
    /// Bit `i` set: unit `i` was out.
    out: u64,
}

impl Default for Seen {
    fn default() -> Self {
        Seen {
            position: [0; MAX_UNITS],
            conditions: [Conditions::NONE; MAX_UNITS],
            out: 0,
        }
    }
}

/// The start of a fight of one encounter: units placed and entered, side
/// counts and masks. Nothing in it depends on the dice.
#[derive(Clone, Copy, Debug)]
struct Start<S> {
    units: [Combatant<S>; MAX_UNITS],
    standing: [u8; MAX_SIDES],
    sides_standing: u8,
    in_fight: u64,
    side_units: [u64; MAX_SIDES],
}

impl<S: Copy + Default> Default for Start<S> {
    fn default() -> Self {
        Start {
            units: [Combatant::default(); MAX_UNITS],
            standing: [0; MAX_SIDES],
            sides_standing: 0,
            in_fight: 0,
            side_units: [0; MAX_SIDES],
        }
    }
}

/// `dst[..n] = src[..n]`, out of line so that the small-fight copy in
/// [`Fight::restart`] stays a handful of inlined moves (merged with this one,
/// it became a call to `memcpy` for every fight).
#[inline(never)]
fn copy_units<S: Copy>(dst: &mut [Combatant<S>], src: &[Combatant<S>], n: usize) {
    dst[..n].copy_from_slice(&src[..n]);
}

/// `i` as an index into per-unit arrays. Unit indices are below
/// [`MAX_UNITS`] by construction (the scenario compiler enforces the
/// capacity); masking instead of a bounds check keeps a compare and a branch
/// off every access on the turn path, and can never reach outside the array.
#[inline(always)]
pub(crate) fn slot(i: usize) -> usize {
    debug_assert!(i < MAX_UNITS, "unit index {i} out of range");
    i & (MAX_UNITS - 1)
}

/// `s` as an index into per-side arrays; see [`slot`].
#[inline(always)]
pub(crate) fn side_slot(s: usize) -> usize {
    debug_assert!(s < MAX_SIDES, "side index {s} out of range");
    s & (MAX_SIDES - 1)
}

const _: () = assert!(MAX_UNITS.is_power_of_two() && MAX_UNITS <= 64);
const _: () = assert!(MAX_SIDES.is_power_of_two());

impl<R: Ruleset> Default for Fight<R> {
    fn default() -> Self {
        Fight {
            units: [Combatant::default(); MAX_UNITS],
            round: 0,
            damage: [0; MAX_SIDES],
            counters: [0; MAX_COUNTERS],
            standing: [0; MAX_SIDES],
            sides_standing: 0,
            in_fight: 0,
            side_units: [0; MAX_SIDES],
            focus: [NO_FOCUS; MAX_SIDES],
            opening: 0,
            n: 0,
            order: [0; MAX_UNITS],
            keys: [InitiativeRoll::default(); MAX_UNITS],
            start: Start::default(),
            seen: Seen::default(),
        }
    }
}

impl<R: Ruleset> Fight<R> {
    /// A fresh workspace. Reuse it for every fight of a batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Units still standing on `side`.
    pub fn standing(&self, side: usize) -> u32 {
        self.standing[side] as u32
    }

    /// Reset to the start of a fight of `enc`.
    pub fn reset(&mut self, enc: &Encounter<R>) {
        self.prepare(enc);
        self.restart(enc);
    }

    /// Build the starting state of `enc`'s fights (once per batch).
    pub fn prepare(&mut self, enc: &Encounter<R>) {
        let start = &mut self.start;
        *start = Start::default();
        for (i, (unit, spec)) in start.units.iter_mut().zip(enc.specs()).enumerate() {
            *unit = Combatant {
                side: spec.side,
                out: false,
                // On a map `distance` holds the packed start square.
                position: if enc.ground.is_some() {
                    spec.distance
                } else {
                    -facing(spec.side) * spec.distance
                },
                cover: spec.cover,
                conditions: spec.conditions,
                lingering: false,
                state: R::State::default(),
            };
            R::enter(unit, spec, &enc.options);
            start.side_units[spec.side as usize] |= 1 << i;
            if !unit.out {
                start.standing[spec.side as usize] += 1;
                start.in_fight |= 1 << i;
            }
        }
        start.sides_standing = start.standing[..enc.sides]
            .iter()
            .filter(|&&s| s > 0)
            .count() as u8;
        // This thread's search buffers for the map, built (or taken over
        // from a ground of the same shape) here, with the batch, so that
        // no fight allocates them.
        if let Some(g) = enc.ground {
            ground::with_scratch(g, |_| ());
        }
    }

    /// Back to the state [`Fight::prepare`] built for `enc`.
    #[inline]
    fn restart(&mut self, enc: &Encounter<R>) {
        self.round = 0;
        self.damage = [0; MAX_SIDES];
        self.counters = [0; MAX_COUNTERS];
        self.focus = [NO_FOCUS; MAX_SIDES];
        self.n = enc.n;
        let start = &self.start;
        // Small fights copy a fixed block (inlined moves, no call); copying
        // units past `n` is harmless, they are never read.
        const SMALL: usize = 4;
        if enc.n <= SMALL {
            self.units[..SMALL].copy_from_slice(&start.units[..SMALL]);
        } else {
            copy_units(&mut self.units, &start.units, enc.n);
        }
        self.standing = start.standing;
        self.sides_standing = start.sides_standing;
        self.in_fight = start.in_fight;
        self.side_units = start.side_units;
    }

    /// True once at most one side has a unit standing.
    #[inline]
    fn over(&self) -> bool {
        self.sides_standing <= 1
    }

    fn winner(&self, sides: usize) -> Option<u8> {
        match self.sides_standing {
            1 => self.standing[..sides]
                .iter()
                .position(|&s| s > 0)
                .map(|s| s as u8),
            _ => None,
        }
    }

    /// The turn order of the current round (unit indices). With team-
    /// alternating activation, the order each side picks its units in.
    pub fn turn_order(&self) -> &[u8] {
        &self.order[..self.n]
    }

    /// Decide the turn order by the encounter's initiative scheme (called by
    /// [`Fight::run`] once per fight, or every round for `rerolled`).
    #[inline]
    pub fn make_order<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) {
        match enc.initiative.kind {
            InitiativeKind::Rolled | InitiativeKind::Rerolled | InitiativeKind::Alternating => {
                self.rolled_order(enc, dice)
            }
            InitiativeKind::Fixed | InitiativeKind::Side => self.other_order(enc, dice),
        }
    }

    /// Every unit rolls, in roster order; each is inserted into the order as
    /// it rolls (one pass: the same order, and the same dice, as rolling all
    /// and then sorting by [`Fight::order_by_keys`], which the exact engine
    /// does; one pass costs the duel 5% fewer instructions per fight).
    #[inline(always)]
    fn rolled_order<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) {
        let n = enc.n.min(MAX_UNITS);
        let mut tied = false;
        for i in 0..n {
            self.keys[i] = R::roll_initiative(&enc.units[i].stats, dice);
            if D::WATCHED {
                let total = self.keys[i].total;
                self.watch(
                    dice,
                    Event::Initiative {
                        unit: i as u8,
                        total,
                    },
                );
            }
            self.order[i] = i as u8;
            tied |= insert_by_key(&mut self.order[..n], i, &self.keys);
        }
        if tied && enc.initiative.ties == Ties::Random {
            shuffle_ties(&mut self.order[..n], &self.keys, dice);
            self.note_order(dice, "initiative ties broken at random");
        }
    }

    /// The turn order from the initiative rolls in `keys`: highest first,
    /// exact ties in roster order or, by the encounter's `ties`, shuffled:
    /// what [`Fight::rolled_order`] makes, inserting each unit as it rolls.
    #[inline]
    fn order_by_keys<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) {
        let n = enc.n.min(MAX_UNITS);
        let mut tied = false;
        for i in 0..n {
            self.order[i] = i as u8;
            tied |= insert_by_key(&mut self.order[..n], i, &self.keys);
        }
        if tied && enc.initiative.ties == Ties::Random {
            shuffle_ties(&mut self.order[..n], &self.keys, dice);
            self.note_order(dice, "initiative ties broken at random");
        }
    }

    /// [`Fight::make_order`] for the `fixed` (no roll) and `side` (a roll
    /// per side) schemes: keys for every unit, then one sort.
    #[inline(never)]
    fn other_order<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) {
        let n = enc.n;
        for (i, slot) in self.order[..n].iter_mut().enumerate() {
            *slot = i as u8;
        }
        let ties = if enc.initiative.kind == InitiativeKind::Side {
            // One roll per side, made by the side's first unit; every unit
            // of the side shares it, so the sort groups sides together and
            // keeps roster order within a side.
            let mut side_roll = [InitiativeRoll::default(); MAX_SIDES];
            let mut side_order = [0u8; MAX_SIDES];
            for s in 0..enc.sides {
                let first = enc.specs().iter().find(|u| u.side as usize == s);
                if let Some(first) = first {
                    side_roll[s] = R::roll_initiative(&first.stats, dice);
                    if D::WATCHED {
                        let unit = enc.specs().iter().position(|u| u.side as usize == s);
                        let total = side_roll[s].total;
                        let unit = unit.unwrap_or(0) as u8;
                        self.watch(dice, Event::Initiative { unit, total });
                    }
                }
                side_order[s] = s as u8;
            }
            sort_by_keys(
                &mut side_order[..enc.sides],
                &side_roll,
                enc.initiative.ties,
                dice,
            );
            let mut rank = [0i32; MAX_SIDES];
            for (r, &s) in side_order[..enc.sides].iter().enumerate() {
                rank[s as usize] = (MAX_SIDES - r) as i32;
            }
            for (key, spec) in self.keys.iter_mut().zip(enc.specs()) {
                *key = InitiativeRoll {
                    total: rank[spec.side as usize],
                    tiebreak: 0,
                };
            }
            Ties::Roster
        } else {
            for (key, spec) in self.keys.iter_mut().zip(enc.specs()) {
                *key = InitiativeRoll {
                    total: R::initiative_stat(&spec.stats),
                    tiebreak: 0,
                };
            }
            enc.initiative.ties
        };
        if D::WATCHED && enc.initiative.kind == InitiativeKind::Fixed {
            for k in 0..n {
                let unit = self.order[k];
                let total = self.keys[unit as usize].total;
                self.watch(dice, Event::Initiative { unit, total });
            }
        }
        sort_by_keys(&mut self.order[..n], &self.keys, ties, dice);
        self.note_order(dice, "turn order set (ties broken by the initiative rule)");
    }

    /// A watched fight hears how the turn order was settled (after the
    /// dice that broke ties, if any).
    #[inline(always)]
    fn note_order<D: Dice>(&mut self, dice: &mut D, what: &'static str) {
        if D::WATCHED {
            self.watch(
                dice,
                Event::Note {
                    unit: NOBODY,
                    target: NOBODY,
                    what,
                },
            );
        }
    }

    /// Fight one fight from the start. `self` is reset first.
    #[inline]
    pub fn run<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) -> Outcome {
        self.prepare(enc);
        self.run_with::<D, true>(enc, dice)
    }

    /// [`Fight::run`] from the prepared start, trying the ruleset's
    /// [`Ruleset::quick_turn`] fast path first if `QUICK` (always, but for the
    /// test that checks the fast paths change nothing).
    // Always inlined: into the batch loop, the fight keeps its dice at a
    // fixed place of the loop's frame instead of behind a pointer.
    #[inline(always)]
    fn run_with<D: Dice, const QUICK: bool>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
    ) -> Outcome {
        self.restart(enc);
        let sides = enc.sides;
        if self.over() {
            return Outcome {
                winner: self.winner(sides),
                rounds: 0,
            };
        }
        let rerolls = enc.initiative.kind == InitiativeKind::Rerolled;
        if D::WATCHED {
            self.seen = Seen {
                position: std::array::from_fn(|i| self.units[i].position),
                conditions: std::array::from_fn(|i| self.units[i].conditions),
                out: !self.in_fight,
            };
            self.watch(dice, Event::Round { round: 1 });
        }
        if enc.initiative.kind == InitiativeKind::Alternating {
            self.choose_opening(enc, dice);
        }
        self.make_order(enc, dice);
        // `1..max + 1`, not `1..=max`: the inclusive range keeps a flag that
        // costs the loop (`max_rounds` is at most `MAX_ROUNDS`: no overflow).
        for round in 1..enc.max_rounds + 1 {
            self.round = round;
            if D::WATCHED && round > 1 {
                self.watch(dice, Event::Round { round });
            }
            if rerolls && round > 1 {
                self.make_order(enc, dice);
            }
            let ended = if enc.initiative.kind == InitiativeKind::Alternating {
                self.alternating_round::<D, QUICK>(enc, dice)
            } else {
                self.ordered_round::<D, QUICK>(enc, dice)
            };
            if ended {
                return Outcome {
                    winner: self.winner(sides),
                    rounds: round,
                };
            }
        }
        Outcome {
            winner: None,
            rounds: enc.max_rounds,
        }
    }

    /// The side that opens every round of this fight under team-alternating
    /// activation: fixed by the encounter, or drawn (one die, before any
    /// initiative roll) with `opening = "random"`.
    #[inline]
    fn choose_opening<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) {
        self.opening = match enc.initiative.opening {
            Opening::Side(side) => side,
            Opening::Random => {
                let side = (dice.roll(enc.sides.max(1) as u32) - 1) as u8;
                if D::WATCHED {
                    const DRAWN: [&str; MAX_SIDES] = [
                        "the first side opens every round (drawn at random)",
                        "the second side opens every round (drawn at random)",
                        "the third side opens every round (drawn at random)",
                        "the fourth side opens every round (drawn at random)",
                    ];
                    self.note_order(dice, DRAWN[side_slot(side as usize)]);
                }
                side
            }
        };
    }

    /// One unit's turn; true if the fight is over after it. The ruleset's
    /// fast path first (inlined here), its full turn if that declines.
    #[inline(always)]
    fn turn<D: Dice, const QUICK: bool>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
        actor: usize,
    ) -> bool {
        // Separate `Turn`s for the fast path and the calls out of line: a
        // `Turn` passed by reference to a function that is not inlined must
        // live on the stack, and the fast path's can then live in registers.
        if D::WATCHED {
            self.watch(dice, Event::Turn { unit: actor as u8 });
        }
        let quick = if QUICK {
            R::quick_turn(&mut Turn {
                enc,
                fight: self,
                dice,
                actor,
            })
        } else {
            Quick::Declined
        };
        let mut turn = Turn {
            enc,
            fight: self,
            dice,
            actor,
        };
        match quick {
            Quick::Done => {}
            Quick::Declined => R::take_turn(&mut turn),
            Quick::Resume(at) => R::resume_turn(&mut turn, at),
        }
        if D::WATCHED {
            self.report_changes(dice);
        }
        self.over()
    }

    /// Tell a watched fight's observer about `event`, after what changed
    /// since it last heard (see [`Seen`]).
    fn watch<D: Dice>(&mut self, dice: &mut D, event: Event) {
        self.report_changes(dice);
        dice.note(&event);
    }

    /// Report movement, conditions gained and lost, and units going out or
    /// coming back since the observer last heard (watched fights only).
    fn report_changes<D: Dice>(&mut self, dice: &mut D) {
        for i in 0..self.n {
            let unit = &self.units[i];
            let seen = &mut self.seen;
            let id = i as u8;
            if unit.position != seen.position[i] {
                dice.note(&Event::Moved {
                    unit: id,
                    from: seen.position[i],
                    to: unit.position,
                });
                seen.position[i] = unit.position;
            }
            if unit.conditions != seen.conditions[i] {
                for &condition in Condition::ALL {
                    let gained = unit.conditions.has(condition);
                    if gained != seen.conditions[i].has(condition) {
                        dice.note(&Event::Condition {
                            unit: id,
                            condition,
                            gained,
                        });
                    }
                }
                seen.conditions[i] = unit.conditions;
            }
            let bit = 1u64 << i;
            if (seen.out & bit != 0) != unit.out {
                dice.note(&if unit.out {
                    Event::Out { unit: id }
                } else {
                    Event::Back { unit: id }
                });
                seen.out ^= bit;
            }
        }
    }

    fn ordered_round<D: Dice, const QUICK: bool>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
    ) -> bool {
        for k in 0..enc.n.min(MAX_UNITS) {
            let actor = slot(self.order[k] as usize);
            if self.units[actor].takes_turns() && self.turn::<D, QUICK>(enc, dice, actor) {
                return true;
            }
        }
        false
    }

    /// The next unit in turn order that takes turns, from `cursor` on, and
    /// the cursor moved past it; `None` when the round is over: the exact
    /// engine's [`Fight::ordered_round`], a turn at a time. (The fight loop
    /// keeps its own loop: walking a cursor cost the duel 5% more
    /// instructions per fight; `tests/exact.rs` checks both agree.)
    #[inline(always)]
    fn next_ordered(&self, enc: &Encounter<R>, cursor: &mut RoundCursor) -> Option<usize> {
        while (cursor.next as usize) < enc.n.min(MAX_UNITS) {
            let actor = slot(self.order[cursor.next as usize] as usize);
            cursor.next += 1;
            if self.units[actor].takes_turns() {
                return Some(actor);
            }
        }
        None
    }

    /// Team-alternating activation: sides take turns, starting with the
    /// fight's opening side ([`Fight::choose_opening`]: the scenario's
    /// `opening`, by default the ruleset's [`Ruleset::opening_side`] or the
    /// first side), each activating its next unit in
    /// initiative order that can act ([`Ruleset::can_act`]); a side with
    /// nobody left who can act passes. Units that take turns but could not
    /// act when activations ran out (stunned, surprised, dying) then get
    /// their turn, in initiative order, at no team's cost.
    fn alternating_round<D: Dice, const QUICK: bool>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
    ) -> bool {
        // Units that have had their turn this round. A unit that cannot act
        // when its side's turn comes is passed over, but not for good: if it
        // can act later in the round (brought back, say), it takes its turn
        // "at the next possible opportunity" (dicestep's Roland example).
        let mut acted = 0u64;
        let mut side = self.opening as usize % enc.sides.max(1);
        loop {
            let mut any = false;
            for step in 0..enc.sides {
                let s = (side + step) % enc.sides;
                if let Some(actor) = self.next_of_side(enc, s, acted) {
                    acted |= 1 << actor;
                    if self.turn::<D, QUICK>(enc, dice, actor) {
                        return true;
                    }
                    side = s + 1;
                    any = true;
                    break;
                }
            }
            if !any {
                break;
            }
        }
        for k in 0..enc.n.min(MAX_UNITS) {
            let actor = slot(self.order[k] as usize);
            if acted & (1 << actor) == 0 && self.units[actor].takes_turns() {
                acted |= 1 << actor;
                if self.turn::<D, QUICK>(enc, dice, actor) {
                    return true;
                }
            }
        }
        false
    }

    /// Where a round begins: before the first unit in turn order, with the
    /// fight's opening side to activate first under team-alternating
    /// activation.
    #[inline]
    fn round_start(&self) -> RoundCursor {
        RoundCursor {
            side: self.opening,
            ..RoundCursor::default()
        }
    }

    /// The next unit to activate under team-alternating activation, from
    /// `cursor` on, and the cursor moved past it; `None` when the round is
    /// over: the exact engine's [`Fight::alternating_round`], a turn at a
    /// time (see [`Fight::next_ordered`]).
    fn next_alternating(&self, enc: &Encounter<R>, cursor: &mut RoundCursor) -> Option<usize> {
        // A unit that cannot act when its side's turn comes is passed over,
        // but not for good: if it can act later in the round (brought back,
        // say), it takes its turn "at the next possible opportunity"
        // (dicestep's Roland example). `cursor.acted` holds the units that
        // have had their turn this round.
        if !cursor.leftovers {
            let side = cursor.side as usize % enc.sides.max(1);
            for step in 0..enc.sides {
                let s = (side + step) % enc.sides;
                if let Some(actor) = self.next_of_side(enc, s, cursor.acted) {
                    cursor.acted |= 1 << actor;
                    cursor.side = (s + 1) as u8;
                    return Some(actor);
                }
            }
            cursor.leftovers = true;
        }
        while (cursor.next as usize) < enc.n.min(MAX_UNITS) {
            let actor = slot(self.order[cursor.next as usize] as usize);
            cursor.next += 1;
            if cursor.acted & (1 << actor) == 0 && self.units[actor].takes_turns() {
                cursor.acted |= 1 << actor;
                return Some(actor);
            }
        }
        None
    }

    /// The first unit of `side` in initiative order that takes turns, can
    /// act and has not acted this round.
    fn next_of_side(&self, enc: &Encounter<R>, side: usize, acted: u64) -> Option<usize> {
        self.order[..enc.n].iter().map(|&u| u as usize).find(|&u| {
            let unit = &self.units[u];
            unit.side as usize == side
                && acted & (1 << u) == 0
                && unit.takes_turns()
                && R::can_act(self, enc, u)
        })
    }

    /// Fight `fights` fights into `tally`.
    pub fn run_into<D: Dice + Clone>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
        fights: u32,
        tally: &mut Tally,
    ) {
        self.run_into_with::<D, true>(enc, dice, fights, tally);
    }

    /// [`Fight::run_into`] with the rulesets' fast paths off: every turn is
    /// [`Ruleset::take_turn`]. Only for the test that checks the fast paths
    /// give exactly the same fights.
    #[doc(hidden)]
    pub fn run_into_without_quick_turns<D: Dice + Clone>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
        fights: u32,
        tally: &mut Tally,
    ) {
        self.run_into_with::<D, false>(enc, dice, fights, tally);
    }

    #[inline]
    fn run_into_with<D: Dice + Clone, const QUICK: bool>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
        fights: u32,
        tally: &mut Tally,
    ) {
        self.prepare(enc);
        // The dice in a local for the batch: at a fixed place in this frame,
        // rolls reach the generator's state directly instead of first
        // loading a pointer to it.
        let mut local = dice.clone();
        if QUICK {
            self.restart(enc);
            if R::quick_batch(self, enc, &mut local, fights, tally) {
                *dice = local;
                return;
            }
        }
        for _ in 0..fights {
            let outcome = self.run_with::<D, QUICK>(enc, &mut local);
            R::finish(self, enc, outcome);
            self.record(enc, outcome, tally);
        }
        *dice = local;
    }

    /// The next fight of a batch, from the start [`Fight::prepare`] built,
    /// finished as [`Fight::run_into`] finishes each of its fights: the same
    /// fight `run_into` would fight from the same dice.
    ///
    /// Every turn is the ruleset's full [`Ruleset::take_turn`], as in
    /// [`Fight::next_fight_watched`] (the fast paths give the same fights,
    /// tests/quick_turns.rs). That also keeps the batch loop's own copy of
    /// the fight loop its only caller: given a second one, the compiler
    /// stopped inlining it into the batch loop, which then ran 6% more
    /// instructions per fight.
    pub fn next_fight<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) -> Outcome {
        let outcome = self.run_with::<D, false>(enc, dice);
        R::finish(self, enc, outcome);
        outcome
    }

    /// [`Fight::next_fight`] with `observer` told everything that happens,
    /// ending with [`Event::End`]. Every turn is the ruleset's full
    /// [`Ruleset::take_turn`] (where the rules report what their rolls
    /// meant): the fast paths give exactly the same fights from the same
    /// dice (tests/quick_turns.rs), so this is the fight `run_into` fought.
    pub fn next_fight_watched<D: Dice, O: Observer>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
        observer: &mut O,
    ) -> Outcome {
        let mut watched = Watched { dice, observer };
        let outcome = self.run_with::<Watched<'_, D, O>, false>(enc, &mut watched);
        R::finish(self, enc, outcome);
        let cause = match outcome.winner {
            Some(_) => EndCause::LastSideStanding,
            None if self.sides_standing == 0 => EndCause::NobodyStanding,
            None => EndCause::RoundCap,
        };
        self.watch(
            &mut watched,
            Event::End {
                winner: outcome.winner,
                rounds: outcome.rounds,
                cause,
            },
        );
        outcome
    }

    /// Add the fight just fought to `tally`.
    // Always inlined into the batch loop, whatever else calls it.
    #[inline(always)]
    pub fn record(&self, enc: &Encounter<R>, outcome: Outcome, tally: &mut Tally) {
        tally.fights += 1;
        match outcome.winner {
            Some(w) => tally.wins[w as usize] += 1,
            None => {
                tally.draws += 1;
                // Sides still standing: the round cap ended it (as
                // `next_fight_watched` tells it), not the last unit falling.
                tally.draws_at_cap += u64::from(self.sides_standing > 1);
            }
        }
        tally.rounds[(outcome.rounds as usize).min(MAX_ROUNDS)] += 1;
        for s in 0..enc.sides {
            tally.survivors[s] += self.standing[s] as u64;
            tally.damage[s] += self.damage[s] as u64;
        }
        let used = R::COUNTERS.len();
        for (t, &c) in tally.counters[..used]
            .iter_mut()
            .zip(&self.counters[..used])
        {
            *t += c as u64;
        }
    }
}

/// A fight between two turns, apart from its units, its round and what it
/// has tallied: everything else the rest of the fight can depend on. The
/// exact engine ([`crate::exact`]) keeps one with every state it holds, and
/// merges states whose units and `Between` are equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Between {
    standing: [u8; MAX_SIDES],
    sides_standing: u8,
    in_fight: u64,
    focus: [u8; MAX_SIDES],
    opening: u8,
    /// Where the round stands.
    pub cursor: RoundCursor,
    /// A turn under way ([`Ruleset::begin_turn`]): its unit, and what it
    /// keeps until its next step.
    pub turn: Option<(u8, crate::rules::TurnStep)>,
    /// The counters the rules read ([`Ruleset::COUNTERS_READ`], in its
    /// order): part of the state for those rules, unlike the others, which
    /// only count.
    pub kept: [u32; MAX_KEPT],
}

/// Most counters a ruleset's rules may read ([`Ruleset::COUNTERS_READ`]).
pub const MAX_KEPT: usize = 4;

/// The exact engine's handle on a fight: the same fight loop, one turn at a
/// time, from states it saves and loads.
impl<R: Ruleset> Fight<R> {
    /// Back to the start [`Fight::prepare`] built (nothing decided yet).
    pub(crate) fn restart_for_exact(&mut self, enc: &Encounter<R>) {
        self.restart(enc);
    }

    /// The opening side of the fight, as [`Fight::run`] decides it (team-
    /// alternating activation only; nothing otherwise).
    pub(crate) fn choose_opening_for_exact<D: Dice>(&mut self, enc: &Encounter<R>, dice: &mut D) {
        if enc.initiative.kind == InitiativeKind::Alternating {
            self.choose_opening(enc, dice);
        }
    }

    /// The turn order of a fight whose units rolled `keys` for initiative
    /// (the schemes where each unit rolls: `rolled`, `rerolled`,
    /// `alternating`), ties broken as [`Fight::make_order`] breaks them.
    pub(crate) fn order_from_keys<D: Dice>(
        &mut self,
        enc: &Encounter<R>,
        keys: &[InitiativeRoll],
        dice: &mut D,
    ) {
        self.keys[..keys.len()].copy_from_slice(keys);
        self.order_by_keys(enc, dice);
    }

    /// Where a round begins.
    pub(crate) fn round_start_for_exact(&self) -> RoundCursor {
        self.round_start()
    }

    /// The next unit to take a turn this round, from `cursor`, as the fight
    /// loop would pick it; `None` when the round is over.
    pub(crate) fn next_actor(&self, enc: &Encounter<R>, cursor: &mut RoundCursor) -> Option<usize> {
        if enc.initiative.kind == InitiativeKind::Alternating {
            self.next_alternating(enc, cursor)
        } else {
            self.next_ordered(enc, cursor)
        }
    }

    /// Begin `actor`'s turn in steps ([`Ruleset::begin_turn`]).
    pub(crate) fn begin_turn<D: Dice>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
        actor: usize,
    ) -> Option<crate::rules::TurnStep> {
        R::begin_turn(&mut Turn {
            enc,
            fight: self,
            dice,
            actor,
        })
    }

    /// The next step of `actor`'s turn ([`Ruleset::step_turn`]).
    pub(crate) fn step_turn<D: Dice>(
        &mut self,
        enc: &Encounter<R>,
        dice: &mut D,
        actor: usize,
        step: crate::rules::TurnStep,
    ) -> Option<crate::rules::TurnStep> {
        R::step_turn(
            &mut Turn {
                enc,
                fight: self,
                dice,
                actor,
            },
            step,
        )
    }

    /// Whether the fight is over (at most one side standing).
    pub(crate) fn is_over(&self) -> bool {
        self.over()
    }

    /// How the fight ends if it ends now, in round `rounds`.
    pub(crate) fn outcome(&self, sides: usize, rounds: u32) -> Outcome {
        Outcome {
            winner: self.winner(sides),
            rounds,
        }
    }

    /// Sides with a unit standing.
    pub(crate) fn sides_standing(&self) -> u32 {
        u32::from(self.sides_standing)
    }

    /// The units in the fight and the turn order.
    pub(crate) fn units_and_order(&self) -> (&[Combatant<R::State>], &[u8]) {
        (&self.units[..self.n], &self.order[..self.n])
    }

    /// Make the round numbers the units' states hold relative to `round`
    /// ([`Ruleset::forget_round`]), before they are saved as a state of
    /// that round. The fight is loaded afresh before it plays on.
    pub(crate) fn forget_round(&mut self, round: u32) {
        for u in &mut self.units[..self.n] {
            R::forget_round(&mut u.state, round);
        }
    }

    /// Replace the turn order (a new round's, rerolled).
    pub(crate) fn set_order_for_exact(&mut self, order: &[u8]) {
        self.order[..self.n].copy_from_slice(order);
    }

    /// Units gone for good ([`Ruleset::gone_for_good`]) moved to the end
    /// of the turn order, in unit order, and forgotten in `cursor`'s units
    /// that have acted this round; `cursor` stays on the same next unit.
    /// Such a unit never takes a turn, so the fight plays alike wherever it
    /// stood: fights that differ only there then compare equal. (The rules
    /// never read the order but to pick who acts next.)
    pub(crate) fn settle_order(&mut self, cursor: &mut RoundCursor) {
        let n = self.n;
        let mut gone = 0u64;
        for (i, u) in self.units[..n].iter().enumerate() {
            if R::gone_for_good(u) {
                gone |= 1 << i;
            }
        }
        if gone == 0 {
            return;
        }
        let mut settled = [0u8; MAX_UNITS];
        let (mut k, mut passed) = (0, 0u8);
        for (at, &u) in self.order[..n].iter().enumerate() {
            if gone & (1 << slot(u as usize)) == 0 {
                settled[k] = u;
                k += 1;
            } else if at < cursor.next as usize {
                passed += 1;
            }
        }
        for u in Bits(gone) {
            settled[k] = u as u8;
            k += 1;
        }
        self.order[..n].copy_from_slice(&settled[..n]);
        cursor.next -= passed;
        cursor.acted &= !gone;
    }

    /// This fight between two turns, `cursor` being where its round stands.
    pub(crate) fn save(&self, cursor: RoundCursor) -> Between {
        let mut kept = [0; MAX_KEPT];
        for (k, &c) in kept.iter_mut().zip(R::COUNTERS_READ) {
            *k = self.counters[c];
        }
        Between {
            standing: self.standing,
            sides_standing: self.sides_standing,
            in_fight: self.in_fight,
            focus: self.focus,
            opening: self.opening,
            cursor,
            turn: None,
            kept,
        }
    }

    /// Make this fight the one saved as `between`, `units` and `order` (as
    /// [`Fight::save`] and [`Fight::units_and_order`] gave them), in round
    /// `round`, with nothing tallied but the counters the rules read.
    pub(crate) fn load(
        &mut self,
        between: &Between,
        units: &[Combatant<R::State>],
        order: &[u8],
        round: u32,
    ) {
        let n = self.n;
        self.units[..n].copy_from_slice(units);
        for u in &mut self.units[..n] {
            R::recall_round(&mut u.state, round);
        }
        self.order[..n].copy_from_slice(order);
        self.round = round;
        self.standing = between.standing;
        self.sides_standing = between.sides_standing;
        self.in_fight = between.in_fight;
        self.focus = between.focus;
        self.opening = between.opening;
        self.damage = [0; MAX_SIDES];
        self.counters = [0; MAX_COUNTERS];
        for (&k, &c) in between.kept.iter().zip(R::COUNTERS_READ) {
            self.counters[c] = k;
        }
    }
}

/// One unit's turn, as a ruleset sees it: the encounter, the fight, the dice
/// and who is acting, plus the engine's shared services.
pub struct Turn<'a, R: Ruleset, D: Dice> {
    pub enc: &'a Encounter<R>,
    pub fight: &'a mut Fight<R>,
    pub dice: &'a mut D,
    /// Index of the acting unit.
    pub actor: usize,
}

impl<'a, R: Ruleset, D: Dice> Turn<'a, R, D> {
    /// A unit's state.
    #[inline]
    pub fn unit(&self, i: usize) -> &Combatant<R::State> {
        &self.fight.units[slot(i)]
    }

    #[inline]
    pub fn unit_mut(&mut self, i: usize) -> &mut Combatant<R::State> {
        &mut self.fight.units[slot(i)]
    }

    /// A unit's spec (stat block, side, starting position).
    #[inline]
    pub fn spec(&self, i: usize) -> &'a UnitSpec<R> {
        &self.enc.units[slot(i)]
    }

    /// The rule options in force.
    #[inline]
    pub fn options(&self) -> &'a R::Options {
        &self.enc.options
    }

    /// The map this fight is on, if any, for a ruleset that plays on maps
    /// (`None` at compile time for the others, so their helpers keep only
    /// the front's arithmetic).
    #[inline(always)]
    pub fn ground(&self) -> Option<&'static Ground> {
        if R::MAP_COSTS.is_some() {
            self.enc.ground
        } else {
            None
        }
    }

    /// A unit's square on the map (meaningful only when [`Turn::ground`] is
    /// `Some`).
    #[inline]
    pub fn square(&self, i: usize) -> Square {
        ground::unpack(self.unit(i).position)
    }

    /// Distance between two units: on the one-dimensional front, or on a
    /// map by the ruleset's metric times the map's scale.
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> i32 {
        if let Some(g) = self.ground() {
            return self.distance_on(g, a, b);
        }
        (self.unit(a).position - self.unit(b).position).abs()
    }

    // The map's halves of the helpers are out of line and cold: on the
    // front each helper keeps only a test of the encounter's ground, so the
    // front's turns cost what they did.
    #[inline(never)]
    #[cold]
    fn distance_on(&self, g: &Ground, a: usize, b: usize) -> i32 {
        g.distance(self.square(a), self.square(b))
    }

    /// Distance between two units on the one-dimensional front, for fast
    /// paths a ruleset turns off on a map ([`Ruleset::place_on_map`]).
    #[inline]
    pub fn front_distance(&self, a: usize, b: usize) -> i32 {
        (self.unit(a).position - self.unit(b).position).abs()
    }

    /// Distance between two positions (on the front, or two packed squares
    /// on a map): where a move began and where a unit stands, say.
    #[inline]
    pub fn gap(&self, p: i32, q: i32) -> i32 {
        match self.ground() {
            Some(g) => gap_on(g, p, q),
            None => (p - q).abs(),
        }
    }

    /// Distance from the actor to another unit.
    #[inline]
    pub fn enemy_distance(&self, enemy: usize) -> i32 {
        self.distance(self.actor, enemy)
    }

    /// Whether the actor can see unit `other` (a line of sight on a map; always
    /// on the front).
    #[inline]
    pub fn sees(&self, other: usize) -> bool {
        match self.ground() {
            Some(g) => self.sees_on(g, other),
            None => true,
        }
    }

    #[inline(never)]
    #[cold]
    fn sees_on(&self, g: &Ground, other: usize) -> bool {
        g.sees(self.square(self.actor), self.square(other))
    }

    /// Allies of the actor (its own side, the actor excluded), in the fight
    /// or not, as a bit set: for rules that act on fallen allies.
    #[inline]
    pub fn allies(&self) -> u64 {
        let side = self.fight.units[self.actor].side as usize;
        self.fight.side_units[side] & !(1 << self.actor)
    }

    /// Units of `side`, in the fight or not, as a bit set.
    #[inline]
    pub fn side_units(&self, side: usize) -> u64 {
        self.fight.side_units[side]
    }

    /// Units in the fight, as a bit set.
    #[inline]
    pub fn in_fight(&self) -> u64 {
        self.fight.in_fight
    }

    /// Enemies of unit `of` still in the fight within `reach` of it, as a
    /// bit set (bit `i` = unit `i`).
    pub fn enemies_within(&self, of: usize, reach: i32) -> u64 {
        let u = &self.fight.units[of];
        let mut mask = 0;
        if let Some(g) = self.ground() {
            return self.enemies_within_on(g, of, reach);
        }
        for i in Bits(self.fight.in_fight & !self.fight.side_units[u.side as usize]) {
            if (u.position - self.fight.units[i].position).abs() <= reach {
                mask |= 1 << i;
            }
        }
        mask
    }

    #[inline(never)]
    #[cold]
    fn enemies_within_on(&self, g: &Ground, of: usize, reach: i32) -> u64 {
        let u = &self.fight.units[of];
        let at = ground::unpack(u.position);
        let mut mask = 0;
        for i in Bits(self.fight.in_fight & !self.fight.side_units[u.side as usize]) {
            if g.distance(at, ground::unpack(self.fight.units[i].position)) <= reach {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// Whether `target` is flanked: on the front, two or more enemies in the
    /// fight within `reach` of it; on a map, enemies within `reach` on two
    /// opposite sides of it ([`crate::map::flanked`] for neighbours,
    /// [`crate::map::opposite_sides`] for any two).
    pub fn flanked(&self, target: usize, reach: i32) -> bool {
        let near = self.enemies_within(target, reach);
        if self.ground().is_some() {
            let t = self.square(target);
            for a in Bits(near) {
                for b in Bits(near & !((2u64 << a) - 1)) {
                    if crate::map::opposite_sides(t, self.square(a), self.square(b)) {
                        return true;
                    }
                }
            }
            return false;
        }
        near.count_ones() >= 2
    }

    /// Move the actor toward `target` by at most `budget`, stopping once it is
    /// `stop_at` away. Returns the distance moved.
    ///
    /// On a map: along a cheapest path by the ruleset's step costs, around
    /// walls, through allies but never through an enemy, ending on a free
    /// square within `stop_at` of the target (and, when `stop_at` is more
    /// than one square, in its line of sight: a shooter closes to where it
    /// can fire); the nearest such square when none is in reach this move.
    pub fn approach(&mut self, target: usize, budget: i32, stop_at: i32) -> i32 {
        if let Some(g) = self.ground() {
            return self.approach_on(g, target, budget, stop_at);
        }
        let to = self.fight.units[target].position;
        let me = &mut self.fight.units[self.actor];
        let gap = (to - me.position).abs() - stop_at;
        let step = budget.min(gap).max(0);
        me.position += step * (to - me.position).signum();
        step
    }

    /// [`Turn::approach`] on a map: a move made before from the same
    /// square among the same units is answered by the thread's
    /// [`ground::MoveCache`] (no search), any other searched
    /// ([`Turn::approach_search`]) and kept there.
    #[inline(never)]
    #[cold]
    fn approach_on(&mut self, g: &'static Ground, target: usize, budget: i32, stop_at: i32) -> i32 {
        let me = self.actor;
        let from = self.square(me);
        let at = self.square(target);
        let squares = (budget.max(0) / g.scale) as u32;
        let others = self.fight.in_fight & !(1u64 << me);
        let side = self.unit(me).side;
        let units = &self.fight.units;
        let key = ground::MoveKey::new(
            (from, at),
            squares,
            stop_at,
            Bits(others).map(|i| (ground::unpack(units[i].position), units[i].side == side)),
        );
        let kept = ground::with_scratch(g, |sc| {
            sc.moves.set_pending(None);
            let (slot, m) = key.as_ref().and_then(|k| sc.moves.get(k))?;
            let m = *m;
            sc.path.clear();
            sc.path.push(from);
            sc.walked = None;
            if m.len == ground::CachedMove::UNKNOWN {
                // Its path is searched if a rule reads it, around the
                // units where they stand.
                self.occupied(g, sc);
                sc.path.push(m.to);
                sc.walked = m.walked;
                sc.moves.set_pending(Some(slot));
            } else {
                sc.path.extend_from_slice(&m.path[..m.len as usize]);
            }
            Some((m.to, m.spent as u32))
        });
        let reached = match kept {
            Some((to, spent)) => (to != from).then_some((to, spent)),
            None => self.approach_search(g, (from, at), squares, stop_at, key),
        };
        let Some((to, spent)) = reached else {
            return 0;
        };
        self.fight.units[me].position = ground::pack(to);
        spent as i32 * g.scale
    }

    /// The thread's sets of the squares the actor may not enter (enemies)
    /// and may not stop on (allies), from where the units in the fight
    /// stand.
    fn occupied(&self, g: &Ground, sc: &mut Scratch) {
        let me = self.actor;
        let side = self.unit(me).side;
        // Only the map's rows: the sets hold nothing else (a new ground
        // clears the scratch whole).
        sc.blocked.clear_rows(g.map.height());
        sc.no_stop.clear_rows(g.map.height());
        for i in Bits(self.fight.in_fight & !(1u64 << me)) {
            let u = &self.fight.units[i];
            let s = ground::unpack(u.position);
            if u.side == side {
                sc.no_stop.insert(s);
            } else {
                sc.blocked.insert(s);
            }
        }
    }

    /// The search behind [`Turn::approach_on`]: where the actor at `from`
    /// goes toward the unit at `at` with `squares` of movement, stopping
    /// within `stop_at`, and the movement spent (`None` when it stays);
    /// the path into the thread's buffers, the answer into its move cache
    /// under `key`.
    #[inline(never)]
    fn approach_search(
        &self,
        g: &'static Ground,
        (from, at): (Square, Square),
        squares: u32,
        stop_at: i32,
        key: Option<ground::MoveKey>,
    ) -> Option<(Square, u32)> {
        // Bounded by the map's side: an unlimited range (`i32::MAX`) must
        // not overflow the square loops below.
        let ring = (stop_at.max(0) / g.scale).min(crate::map::MAX_SIDE as i32);
        let sighted = ring > 1;
        ground::with_scratch(g, |sc| {
            self.occupied(g, sc);
            // Goals: the free squares from which the target is within
            // `stop_at` (and in sight, for a shooter).
            sc.goals.clear();
            let (w, h) = (g.map.width() as i32, g.map.height() as i32);
            for y in (at.y as i32 - ring).max(0)..=(at.y as i32 + ring).min(h - 1) {
                for x in (at.x as i32 - ring).max(0)..=(at.x as i32 + ring).min(w - 1) {
                    let s = Square::new(x as u8, y as u8);
                    if s == at
                        || !g.graph.passable(s)
                        || sc.blocked.contains(s)
                        || sc.no_stop.contains(s)
                        || g.distance(s, at) > stop_at.max(g.scale)
                        || (sighted && !g.sees(s, at))
                    {
                        continue;
                    }
                    sc.goals.push(s);
                }
            }
            let Scratch {
                ws,
                field,
                goals,
                blocked,
                no_stop,
                path,
                near,
                walked,
                moves,
                ..
            } = sc;
            // The move square by square, for `last_path`.
            path.clear();
            path.push(from);
            *walked = None;
            let keep = |moves: &mut ground::MoveCache, m: Option<ground::CachedMove>| {
                key.zip(m).map(|(k, m)| moves.put(k, m))
            };
            // Already within `stop_at` (the field would be 0 here).
            if goals.contains(&from) {
                keep(moves, ground::CachedMove::new(from, 0, Some(&[]), None));
                return None;
            }
            let near_move =
                ground::near_reach(g, near, goals, ws, (from, squares), blocked, no_stop);
            let r = match near_move {
                Some((r, Some(goal_field))) => {
                    // Walked: the two ends now, the squares between if a
                    // rule asks (`last_path`).
                    *walked = Some(goal_field);
                    path.push(r.to);
                    let slot = keep(
                        moves,
                        ground::CachedMove::new(r.to, r.spent, None, Some(goal_field)),
                    );
                    moves.set_pending(slot);
                    return Some((r.to, r.spent));
                }
                Some((r, None)) => r,
                None => {
                    g.graph.field(ws, goals, blocked, field);
                    g.graph
                        .reach(ws, field, (from, 0), squares, blocked, no_stop)
                }
            };
            if r.to != from {
                path.extend(ws.path());
                path[1..].reverse();
            }
            keep(
                moves,
                ground::CachedMove::new(r.to, r.spent, Some(&path[1..]), None),
            );
            (r.to != from).then_some((r.to, r.spent))
        })
    }

    /// Move the actor back, away from the enemy's side, by `amount` (on a
    /// map: square by square away from the nearest enemy by path, onto free
    /// squares, as far as `amount` allows).
    pub fn back_off(&mut self, amount: i32) {
        if let Some(g) = self.ground() {
            return self.back_off_on(g, amount);
        }
        let me = &mut self.fight.units[self.actor];
        me.position -= facing(me.side) * amount.max(0);
    }

    /// [`Turn::back_off`] on a map: a greedy walk up the field of distances
    /// from the enemies (the step that gains the most distance, a step into
    /// cover from the nearest enemy before any other), never onto an
    /// occupied square, stopping when no step gains, or when it stands in
    /// cover, not next to an enemy, and every step would leave the cover.
    #[inline(never)]
    #[cold]
    fn back_off_on(&mut self, g: &'static Ground, amount: i32) {
        let me = self.actor;
        let mut budget = (amount.max(0) / g.scale) as u32;
        let side = self.unit(me).side;
        let in_fight = self.fight.in_fight;
        let units = &self.fight.units[..self.fight.n];
        let mut at = self.square(me);
        ground::with_scratch(g, |sc| {
            sc.blocked.clear_rows(g.map.height());
            sc.goals.clear();
            sc.path.clear();
            sc.path.push(at);
            sc.walked = None;
            sc.moves.set_pending(None);
            for (i, u) in units.iter().enumerate() {
                if i == me || in_fight & (1 << i) == 0 {
                    continue;
                }
                let s = ground::unpack(u.position);
                sc.blocked.insert(s);
                if u.side != side {
                    sc.goals.push(s);
                }
            }
            let Scratch {
                ws,
                field,
                goals,
                near,
                ..
            } = sc;
            // The field from the enemies with nothing blocked is the least of
            // their terrain-only fields: read from the cache where it has
            // them (no search), else searched.
            let cached = ground::near_fields(g, near, goals);
            if !cached {
                g.graph.field(ws, goals, &SquareSet::new(), field);
            }
            let value = |s: Square, p: u8| {
                if cached {
                    near.iter().fold(UNREACHABLE, |m, f| m.min(f.get(s, p)))
                } else {
                    field.get(s, p)
                }
            };
            // Cover from the nearest enemy (by straight line), as terrain
            // next to the square gives it ([`Ground::cover`]:
            // what a designer's low wall or parapet means): a unit keeping
            // its range prefers a step into it, and once in it (and not next
            // to an enemy) stays rather than step out of it.
            let covered = |s: Square| {
                goals
                    .iter()
                    .min_by_key(|&&e| Metric::Chebyshev.distance(e, s))
                    .is_some_and(|&e| g.cover(e, s) > Cover::None)
            };
            let beside_enemy = |s: Square| goals.iter().any(|&e| e.adjacent(s));
            let mut parity = 0;
            while budget > 0 {
                let here = value(at, parity);
                let mut best = None;
                for dir in 0..8 {
                    let Some((t, c, p)) = g.graph.step(at, parity, dir) else {
                        continue;
                    };
                    let there = value(t, p);
                    if c > budget || sc.blocked.contains(t) || there == UNREACHABLE || there <= here
                    {
                        continue;
                    }
                    let key = (covered(t), there);
                    if best.is_none_or(|(_, _, _, b)| key > b) {
                        best = Some((t, c, p, key));
                    }
                }
                let Some((t, c, p, (into_cover, _))) = best else {
                    break;
                };
                if !into_cover && covered(at) && !beside_enemy(at) {
                    break;
                }
                sc.path.push(t);
                at = t;
                parity = p;
                budget -= c;
            }
        });
        self.fight.units[me].position = ground::pack(at);
    }

    /// The squares of the actor's last move on a map, in order, from
    /// `from` (the packed position it began on) to where it stands: for
    /// rules that look at every square a move passes (attacks of
    /// opportunity on leaving a reach, free hits in a zone). Read from the
    /// thread's buffers, which [`Turn::approach`] and [`Turn::back_off`]
    /// fill; nothing is allocated. When the last move recorded is not this
    /// one (it began elsewhere or ended elsewhere), or on the front, `body`
    /// gets the two ends only.
    pub fn last_path<T>(&self, from: i32, body: impl FnOnce(&[Square]) -> T) -> T {
        let (start, end) = (ground::unpack(from), self.square(self.actor));
        match self.ground() {
            Some(g) => ground::with_scratch(g, |sc| {
                if sc.path.first() == Some(&start) && sc.path.last() == Some(&end) {
                    // A walked move: its squares searched now, once.
                    sc.walk_path(g, start);
                    body(&sc.path)
                } else {
                    body(&[start, end])
                }
            }),
            None => body(&[start, end]),
        }
    }

    /// A new `Turn` for the same actor, borrowing this one.
    ///
    /// For calls out of line from inlined code: a `Turn` passed by reference
    /// to a function that is not inlined must live on the stack, and then so
    /// must everything read through it, on every path. Handing such calls a
    /// fresh `Turn` keeps the caller's own in registers.
    #[inline(always)]
    pub fn reborrow(&mut self) -> Turn<'_, R, D> {
        Turn {
            enc: self.enc,
            fight: &mut *self.fight,
            dice: &mut *self.dice,
            actor: self.actor,
        }
    }

    /// Run `body` as unit `actor`'s action inside this turn (reactions such
    /// as attacks of opportunity), then carry on as the current actor.
    pub fn as_actor<T>(&mut self, actor: usize, body: impl FnOnce(&mut Turn<'_, R, D>) -> T) -> T {
        body(&mut Turn {
            enc: self.enc,
            fight: &mut *self.fight,
            dice: &mut *self.dice,
            actor,
        })
    }

    /// Enemies of the actor still in the fight.
    pub fn enemies(&self) -> impl Iterator<Item = usize> + 'static {
        Bits(self.enemy_mask())
    }

    /// Enemies of the actor still in the fight, as a bit set.
    #[inline]
    fn enemy_mask(&self) -> u64 {
        let side = side_slot(self.unit(self.actor).side as usize);
        self.fight.in_fight & !self.fight.side_units[side]
    }

    /// Pick a target for the actor among enemies in the fight for which
    /// `allowed` holds, by the actor's targeting policy. Rolls dice only to
    /// choose among real alternatives (so a lone candidate costs no roll).
    // Always inlined: `random` (the default) is a few instructions, and this
    // sits on every attack's path (fast paths included); the scored and
    // focus policies stay out of line.
    #[inline(always)]
    pub fn choose_target(
        &mut self,
        allowed: impl Fn(&Turn<'_, R, D>, usize) -> bool,
    ) -> Option<usize> {
        let policy = self.spec(self.actor).targeting;
        let side = side_slot(self.unit(self.actor).side as usize);
        match policy {
            Targeting::Random => self.random_target(&allowed),
            Targeting::Focus => self.reborrow().focus_target(side, &allowed),
            Targeting::Smart => self.reborrow().smart_target(side, &allowed),
            _ => self.reborrow().best_target(policy, &allowed),
        }
    }

    /// The `smart` policy ([`Targeting::Smart`]): the allowed enemy with the
    /// lowest remaining health among those the actor can drop this turn
    /// (health at most its [`UnitSpec::drops`]), else the side's focus if
    /// still allowed, else a new focus: the weakest allowed enemy (lowest
    /// health fraction). Ties are rolled for, as the scored policies do.
    #[inline(never)]
    fn smart_target(
        &mut self,
        side: usize,
        allowed: &impl Fn(&Turn<'_, R, D>, usize) -> bool,
    ) -> Option<usize> {
        let drops = self.spec(self.actor).drops as i64;
        let droppable = |t: &Turn<'_, R, D>, i: usize| allowed(t, i) && t.vitality(i).0 <= drops;
        if let Some(i) = self.best_by(&droppable, |t, i| (-t.vitality(i).0, 1)) {
            return Some(i);
        }
        let f = self.fight.focus[side];
        if f != NO_FOCUS && !self.fight.units[f as usize].out && allowed(self, f as usize) {
            return Some(f as usize);
        }
        let chosen = self.best_by(allowed, |t, i| {
            let (cur, max) = t.vitality(i);
            (-cur, max)
        })?;
        self.fight.focus[side] = chosen as u8;
        Some(chosen)
    }

    /// The side's focus if still allowed, else a new one at random.
    #[inline(never)]
    fn focus_target(
        &mut self,
        side: usize,
        allowed: &impl Fn(&Turn<'_, R, D>, usize) -> bool,
    ) -> Option<usize> {
        let f = self.fight.focus[side];
        if f != NO_FOCUS && !self.fight.units[f as usize].out && allowed(self, f as usize) {
            return Some(f as usize);
        }
        let chosen = self.random_target(allowed)?;
        self.fight.focus[side] = chosen as u8;
        Some(chosen)
    }

    /// Uniform choice among allowed enemies: count, then roll an index (the
    /// `random` policy; fast paths that know their unit targets at random
    /// call it directly).
    #[inline(always)]
    pub fn random_target(
        &mut self,
        allowed: &impl Fn(&Turn<'_, R, D>, usize) -> bool,
    ) -> Option<usize> {
        let enemies = self.enemy_mask();
        if enemies == 0 {
            return None;
        }
        if enemies & (enemies - 1) == 0 {
            // One enemy left (every duel, the end of most fights): test it
            // directly instead of building a candidate set.
            let i = enemies.trailing_zeros() as usize;
            return allowed(self, i).then_some(i);
        }
        let mut candidates = 0u64;
        for i in Bits(enemies) {
            if allowed(self, i) {
                candidates |= 1 << i;
            }
        }
        if candidates & candidates.wrapping_sub(1) == 0 {
            // None or exactly one: no roll (and no population count).
            return (candidates != 0).then(|| candidates.trailing_zeros() as usize);
        }
        let pick = self.dice.roll(candidates.count_ones()) as usize - 1;
        let chosen = Bits(candidates).nth(pick);
        if let (true, Some(target)) = (D::WATCHED, chosen) {
            self.note_target(target);
        }
        chosen
    }

    /// The allowed enemy with the best score; ties broken at random.
    // One loop per policy: the score is worked out inline, not through a
    // `match` on the policy for every candidate.
    #[inline(never)]
    fn best_target(
        &mut self,
        policy: Targeting,
        allowed: &impl Fn(&Turn<'_, R, D>, usize) -> bool,
    ) -> Option<usize> {
        match policy {
            Targeting::Nearest => match self.ground() {
                Some(g) => self.nearest_on(g, allowed),
                None => self.best_by(allowed, |t, i| (-(t.distance(t.actor, i) as i64), 1)),
            },
            Targeting::Weakest => self.best_by(allowed, |t, i| {
                let (cur, max) = t.vitality(i);
                (-cur, max)
            }),
            Targeting::Strongest => self.best_by(allowed, |t, i| t.vitality(i)),
            // Not scored: `choose_target` sends these elsewhere.
            Targeting::Random | Targeting::Focus | Targeting::Smart => self.random_target(allowed),
        }
    }

    /// Nearest by path on a map: around walls, not through them (out of
    /// line, so the front's targeting keeps its registers).
    ///
    /// The same choice as [`Turn::best_by`] with the path distance as the
    /// score, asked in another order: every enemy's distance first (a
    /// table look-up each), then `allowed` (a ruleset's test of range, sight
    /// and cover: the dear part) for the nearest only; if none of them is
    /// allowed, the others in unit order, not asking one farther than the
    /// nearest allowed found so far (it could never be chosen). The tied
    /// nearest allowed are rolled for as `best_by` rolls.
    #[inline(never)]
    #[cold]
    fn nearest_on(
        &mut self,
        g: &Ground,
        allowed: &impl Fn(&Turn<'_, R, D>, usize) -> bool,
    ) -> Option<usize> {
        let from = self.square(self.actor);
        let enemies = self.enemy_mask();
        let apart = |t: &Self, i: usize| g.path_distance(from, t.square(i));
        // The nearest enemies, then `allowed` for them.
        let mut near = i64::MAX;
        let mut at = 0u64;
        for i in Bits(enemies) {
            let d = apart(self, i);
            if d < near {
                near = d;
                at = 0;
            }
            if d == near {
                at |= 1 << i;
            }
        }
        let mut best = 0u64;
        for i in Bits(at) {
            if allowed(self, i) {
                best |= 1 << i;
            }
        }
        if best == 0 {
            // None of them allowed: the others, as `best_by` weighs them,
            // skipping any farther than the nearest allowed one found.
            let mut best_d = i64::MAX;
            for i in Bits(enemies & !at) {
                let d = apart(self, i);
                if d > best_d || !allowed(self, i) {
                    continue;
                }
                if d < best_d {
                    best_d = d;
                    best = 0;
                }
                best |= 1 << i;
            }
        }
        self.roll_among(best)
    }

    /// The allowed enemy with the highest `score` (a fraction `(a, b)`,
    /// `b > 0`); ties broken by a roll among the tied, in unit order.
    #[inline(always)]
    fn best_by(
        &mut self,
        allowed: &impl Fn(&Turn<'_, R, D>, usize) -> bool,
        score: impl Fn(&Turn<'_, R, D>, usize) -> (i64, i64),
    ) -> Option<usize> {
        // The tied best as a bit set: in unit order, as they were found.
        let mut best = 0u64;
        let mut best_score = (0i64, 1i64);
        for i in self.enemies() {
            if !allowed(self, i) {
                continue;
            }
            let s = score(self, i);
            // Compare fractions a/b with c/d as a*d with c*b.
            let order = if best == 0 {
                std::cmp::Ordering::Greater
            } else {
                (s.0 * best_score.1).cmp(&(best_score.0 * s.1))
            };
            match order {
                std::cmp::Ordering::Greater => {
                    best = 1 << i;
                    best_score = s;
                }
                std::cmp::Ordering::Equal => best |= 1 << i,
                std::cmp::Ordering::Less => {}
            }
        }
        self.roll_among(best)
    }

    /// One of the tied best enemies `best` (a bit set in unit order): none
    /// or the only one without a roll, else a roll among them (a watched
    /// fight hears the choice).
    #[inline(always)]
    fn roll_among(&mut self, best: u64) -> Option<usize> {
        if best & best.wrapping_sub(1) == 0 {
            // None or one: no roll.
            return (best != 0).then(|| best.trailing_zeros() as usize);
        }
        let pick = self.dice.roll(best.count_ones()) as usize - 1;
        let target = Bits(best).nth(pick);
        if let Some(target) = target {
            self.note_target(target);
        }
        target
    }

    /// A watched fight hears which target a die just chose.
    #[inline(always)]
    fn note_target(&mut self, target: usize) {
        if D::WATCHED {
            self.note(Event::Target {
                unit: self.actor as u8,
                target: target as u8,
            });
        }
    }

    /// A unit's health as a fraction, `(current, max)` with `max ≥ 1`.
    #[inline(always)]
    fn vitality(&self, i: usize) -> (i64, i64) {
        let (cur, max) = R::vitality(&self.fight.units[i], &self.enc.units[i]);
        (cur as i64, max.max(1) as i64)
    }

    /// Book `amount` of harm dealt by the actor's side to `target` (call it
    /// after the target's state shows the harm: a watched fight reports what
    /// the target has left).
    #[inline]
    pub fn harm(&mut self, target: usize, amount: u32) {
        self.book_harm(amount);
        if D::WATCHED && amount > 0 {
            let (left, max) = R::vitality(self.unit(target), self.spec(target));
            self.note(Event::Harm {
                unit: self.actor as u8,
                target: target as u8,
                amount,
                left,
                max,
            });
        }
    }

    /// [`Turn::harm`] added to a load track of `target` (thrum's Fatigue or
    /// Stress), which stands at `load` against `tolerance` once the harm is
    /// added: a watched fight reports it as [`Event::Load`].
    #[inline]
    pub fn harm_load(
        &mut self,
        target: usize,
        amount: u32,
        track: Track,
        load: i32,
        tolerance: i32,
    ) {
        self.book_harm(amount);
        if D::WATCHED && amount > 0 {
            self.note(Event::Load {
                unit: self.actor as u8,
                target: target as u8,
                track,
                amount,
                load: load.max(0) as u32,
                tolerance: tolerance.max(0) as u32,
            });
        }
    }

    /// Harm dealt by the actor's side, in the fight's damage tally.
    #[inline(always)]
    fn book_harm(&mut self, amount: u32) {
        let side = side_slot(self.unit(self.actor).side as usize);
        self.fight.damage[side] += amount;
    }

    /// [`Turn::note`] that `unit` attacks `target` with the weapon numbered
    /// `weapon` (see [`Event::Attack`]).
    #[inline(always)]
    pub fn note_attack(&mut self, unit: usize, target: usize, weapon: u16) {
        if D::WATCHED {
            self.note(Event::Attack {
                unit: unit_id(unit),
                target: unit_id(target),
                weapon,
            });
        }
    }

    /// Tell a watched fight's observer about `event` (after the movement,
    /// conditions and units out since it last heard). Free when the dice are
    /// not watched: the event is never built.
    #[inline(always)]
    pub fn note(&mut self, event: Event) {
        if D::WATCHED {
            self.fight.watch(self.dice, event);
        }
    }

    /// [`Turn::note`] of a roll by the actor checked against a number (see
    /// [`Event::Check`]); `target` may be [`NOBODY`]. Returns `passed`.
    #[inline(always)]
    pub fn note_check(
        &mut self,
        target: usize,
        rule: &'static str,
        roll: i32,
        modifier: i32,
        need: i32,
        passed: bool,
    ) -> bool {
        self.note_check_by(self.actor, target, rule, roll, modifier, need, passed)
    }

    /// [`Turn::note_check`] of a roll made by `unit` (a morale check rolled
    /// for a side, a save), not necessarily the actor.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn note_check_by(
        &mut self,
        unit: usize,
        target: usize,
        rule: &'static str,
        roll: i32,
        modifier: i32,
        need: i32,
        passed: bool,
    ) -> bool {
        if D::WATCHED {
            self.note(Event::Check {
                unit: unit_id(unit),
                target: unit_id(target),
                rule,
                roll,
                modifier,
                need,
                passed,
            });
        }
        passed
    }

    /// [`Turn::note`] of a roll by the actor used as it is (see
    /// [`Event::Roll`]); `target` may be [`NOBODY`].
    #[inline(always)]
    pub fn note_roll(&mut self, target: usize, rule: &'static str, total: i32) {
        if D::WATCHED {
            self.note(Event::Roll {
                unit: self.actor as u8,
                target: unit_id(target),
                rule,
                total,
                dice: 0,
            });
        }
    }

    /// [`Turn::note`] of something a rule decided about unit `unit` (not
    /// necessarily the actor: a unit routing in its side's morale check).
    #[inline(always)]
    pub fn note_unit(&mut self, unit: usize, what: &'static str) {
        if D::WATCHED {
            self.note(Event::Note {
                unit: unit_id(unit),
                target: NOBODY,
                what,
            });
        }
    }

    /// [`Turn::note`] of something a rule decided about the actor (and
    /// `target`, or [`NOBODY`]; see [`Event::Note`]).
    #[inline(always)]
    pub fn note_that(&mut self, target: usize, what: &'static str) {
        if D::WATCHED {
            self.note(Event::Note {
                unit: self.actor as u8,
                target: unit_id(target),
                what,
            });
        }
    }

    /// Add one to counter `index` (an index into `R::COUNTERS`).
    #[inline]
    pub fn count(&mut self, index: usize) {
        self.fight.counters[index] += 1;
    }

    /// Add one to counter `index` if `yes`, without a branch.
    #[inline]
    pub fn count_if(&mut self, index: usize, yes: bool) {
        self.fight.counters[index] += u32::from(yes);
    }

    /// Take a unit out of the fight (no-op if it already is).
    #[inline]
    pub fn take_out(&mut self, i: usize) {
        let i = slot(i);
        let u = &mut self.fight.units[i];
        if !u.out {
            u.out = true;
            self.fight.in_fight &= !(1 << i);
            let side = side_slot(u.side as usize);
            self.fight.standing[side] -= 1;
            if self.fight.standing[side] == 0 {
                self.fight.sides_standing -= 1;
            }
        }
    }

    /// Bring a unit back into the fight (no-op if it is in).
    pub fn bring_back(&mut self, i: usize) {
        let u = &mut self.fight.units[i];
        if u.out {
            u.out = false;
            self.fight.in_fight |= 1 << i;
            let side = u.side as usize;
            if self.fight.standing[side] == 0 {
                self.fight.sides_standing += 1;
            }
            self.fight.standing[side] += 1;
        }
    }
}

/// A unit index as events carry it ([`NOBODY`] passes through).
#[inline(always)]
fn unit_id(i: usize) -> u8 {
    if i >= MAX_UNITS {
        NOBODY
    } else {
        i as u8
    }
}

/// The direction side `side` faces on the front: even sides +1, odd −1.
#[inline]
pub fn facing(side: u8) -> i32 {
    if side.is_multiple_of(2) {
        1
    } else {
        -1
    }
}

/// The indices of the set bits of a `u64`, lowest first: iterate unit masks.
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// [`Turn::gap`] on a map.
#[inline(never)]
#[cold]
fn gap_on(g: &Ground, p: i32, q: i32) -> i32 {
    g.distance(ground::unpack(p), ground::unpack(q))
}

#[cfg(test)]
mod tests {
    //! Engine behaviour pinned with a minimal ruleset: unit 0 brings unit 1
    //! back into the fight on its turn; every turn is counted per unit.

    use super::*;
    use crate::dice::ScriptedDice;
    use crate::engine::{InitiativeKind, Tactic};
    use crate::results::CounterInfo;
    use crate::rules::{Field, FieldError, FieldReader, Kind, Lit};
    use crate::scenario::compile::compile_str;

    #[derive(Clone, Copy, Debug, Default)]
    struct Reviver;

    #[derive(Clone, Copy, Debug, Default)]
    struct Unit {
        init: i32,
        down: bool,
        stunned: bool,
    }

    impl Ruleset for Reviver {
        const NAME: &'static str = "reviver";
        const TITLE: &'static str = "test ruleset";
        const ABOUT: &'static str = "";
        const DISTANCE_UNIT: &'static str = "m";
        const DEFAULT_INITIATIVE: InitiativeKind = InitiativeKind::Alternating;
        const INITIATIVE_STAT: &'static str = "init";
        const UNIT_FIELDS: &'static [Field] = &[
            Field::new(
                "init",
                Kind::Int { min: 0, max: 100 },
                Some(Lit::Int(0)),
                "",
            ),
            Field::new("down", Kind::Bool, Some(Lit::Bool(false)), ""),
            Field::new("stunned", Kind::Bool, Some(Lit::Bool(false)), ""),
        ];
        const WEAPON_FIELDS: &'static [Field] = &[];
        const OPTIONS: &'static [Field] = &[];
        const COUNTERS: &'static [CounterInfo] = &[
            CounterInfo {
                name: "turns_0",
                doc: "",
            },
            CounterInfo {
                name: "turns_1",
                doc: "",
            },
            CounterInfo {
                name: "turns_2",
                doc: "",
            },
            CounterInfo {
                name: "turns_3",
                doc: "",
            },
            CounterInfo {
                name: "sequence",
                doc: "",
            },
        ];
        const CONFORMANCE: &'static [crate::rules::Clause] = &[];
        type Weapon = ();
        type Unit = Unit;
        type State = ();
        type Options = ();

        fn compile_options(_: &impl FieldReader) -> Result<(), FieldError> {
            Ok(())
        }
        fn compile_weapon(_: &impl FieldReader) -> Result<(), FieldError> {
            Ok(())
        }
        fn number_weapon(_: &mut (), _: u16) {}
        fn compile_unit(f: &impl FieldReader, _: &[()]) -> Result<Unit, FieldError> {
            Ok(Unit {
                init: f.int("init")? as i32,
                down: f.bool("down")?,
                stunned: f.bool("stunned")?,
            })
        }
        fn describe_unit(_: &Unit) -> String {
            String::new()
        }
        fn default_tactic(_: &Unit) -> Tactic {
            Tactic::Hold
        }
        fn roll_initiative<D: Dice>(unit: &Unit, _: &mut D) -> InitiativeRoll {
            InitiativeRoll {
                total: unit.init,
                tiebreak: 0,
            }
        }
        fn initiative_stat(unit: &Unit) -> i32 {
            unit.init
        }
        fn enter(unit: &mut Combatant<()>, spec: &UnitSpec<Self>, _: &()) {
            unit.out = spec.stats.down;
        }
        fn can_act(fight: &Fight<Self>, enc: &Encounter<Self>, unit: usize) -> bool {
            !fight.units[unit].out && !enc.units[unit].stats.stunned
        }
        fn take_turn<D: Dice>(turn: &mut Turn<'_, Self, D>) {
            turn.count(turn.actor);
            // Turn order as base-5 digits, first turn most significant.
            let seq = &mut turn.fight.counters[4];
            *seq = *seq * 5 + turn.actor as u32 + 1;
            if turn.actor == 0 {
                turn.bring_back(1);
            }
        }
        fn vitality(_: &Combatant<()>, _: &UnitSpec<Self>) -> (u32, u32) {
            (1, 1)
        }
    }

    #[test]
    fn a_unit_brought_back_later_in_the_round_still_takes_its_turn() {
        // Red: unit 1 (init 9, starts out of the fight), unit 0 (init 5, the
        // reviver); blue: unit 2. Team-alternating: red's first pick skips
        // the fallen unit 1 and activates unit 0, which brings 1 back; blue's
        // unit 2 acts; then red's unit 1, revived, takes its turn.
        let compiled = compile_str::<Reviver>(
            r#"
name = "t"
rules = "trenches"
max_rounds = 1
[units.reviver]
init = 5
[units.fallen]
init = 9
down = true
[units.foe]
init = 1
[sides.red]
reviver = {}
fallen = {}
[sides.blue]
foe = {}
"#,
        );
        let enc = match compiled {
            Ok(c) => c.encounter,
            Err(e) => panic!("{e}"),
        };
        let mut fight = Fight::<Reviver>::new();
        let outcome = fight.run(&enc, &mut ScriptedDice::new(&[]));
        assert_eq!(outcome.winner, None, "one round, nobody down: a draw");
        assert_eq!(&fight.counters[..3], &[1, 1, 1], "every unit acted once");
    }

    fn reviver(text: &str) -> Encounter<Reviver> {
        match compile_str::<Reviver>(text) {
            Ok(c) => c.encounter,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn a_member_who_cannot_act_never_costs_its_team_an_activation() {
        // dicestep's "Initiative and Rounds": "Each team will select one
        // member to take a turn, and then pass to the next team"; "If at any
        // time a character becomes unable to act ... they lose the ability
        // to take a turn." Red: unit 0 (init 9, stunned), unit 1 (init 5);
        // blue: unit 2 (init 7), unit 3 (init 1). Red's first activation goes
        // to unit 1, not to the stunned unit 0; blue's unit 2; red has no one
        // left who can act, so blue's unit 3; then unit 0's turn, at no
        // team's cost. Order 1, 2, 3, 0.
        let enc = reviver(
            r#"
name = "t"
rules = "trenches"
max_rounds = 1
[units.stunned]
init = 9
stunned = true
[units.ready]
init = 5
[units.quick]
init = 7
[units.slow]
init = 1
[sides.red]
stunned = {}
ready = {}
[sides.blue]
quick = {}
slow = {}
"#,
        );
        let mut fight = Fight::<Reviver>::new();
        fight.run(&enc, &mut ScriptedDice::new(&[]));
        assert_eq!(&fight.counters[..4], &[1, 1, 1, 1], "every unit had a turn");
        let seq = [2, 3, 4, 1].iter().fold(0, |s, &d| s * 5 + d);
        assert_eq!(fight.counters[4], seq, "turn order 1, 2, 3, 0");
    }
}
