//! The enumeration of one cell's fight ([`solve`]): a Markov chain over
//! fight states between turns, built as the fight reaches them.
//!
//! Every state the fight reaches is numbered once ([`StateTable`]). The
//! first time a state has to be played, its *transitions* are worked out by
//! running the turn it is at for every outcome of the turn's dice: the
//! states the turn leads to with their probabilities, the chance that the
//! fight ends there (and how), and the expected harm and counters of the
//! turn. A round is then the states alive at its start pushed through
//! their transitions, layer by layer: layer `t` holds the states after `t`
//! turns of the round, every turn marks a unit as having acted, so `t`
//! never exceeds the number of units. A state whose round has no turn left
//! moves to the next round (through every new turn order with `rerolled`
//! initiative), or, at the round cap, ends in a draw.
//!
//! States hold round numbers relative to the round they are in
//! ([`Ruleset::forget_round`]), and rounds of one class
//! ([`Ruleset::round_class`]) play alike, so a state's transitions are
//! worked out once for every round of its class: a long fight costs its
//! distinct states, not its rounds times them. Where the next round is of
//! another class, what was worked out is dropped at the end of the round.
//!
//! New states of a layer are worked out in chunks of [`CHUNK`] on rayon's
//! threads, and their results numbered in chunk order, so the answer (its
//! rounding included) does not depend on the number of threads.

use rayon::prelude::*;

use super::initiative::{openings, orders, Order};
use super::paths::{PathDice, MAX_ROLLS};
use super::sum::{gamma, Sum};
use super::table::{Key, StateTable};
use super::{Answer, ExactError, Limits, MAX_OUTCOMES, UNFINISHED_BELOW};
use crate::engine::{Encounter, Fight, InitiativeKind, Outcome, MAX_COUNTERS, MAX_SIDES};
use crate::rules::Ruleset;

/// New states per chunk worked out on one thread.
const CHUNK: usize = 256;

/// Enumerate every fight of `enc` (see the module docs).
pub fn solve<R: Ruleset>(enc: &Encounter<R>, limits: &Limits) -> Result<Answer, ExactError> {
    assert!(
        R::COUNTERS_READ.len() <= crate::engine::MAX_KEPT,
        "{} reads more counters than a fight state keeps",
        R::NAME
    );
    let mut worker = Worker::<R>::new(enc);
    let mut chain = Chain::new(enc, limits);
    let fight = &mut worker.fight;
    if fight.is_over() {
        let kept = fight.save(fight.round_start_for_exact()).kept;
        chain
            .totals
            .end(fight, enc, fight.outcome(enc.sides, 0), &kept, 1.0, 0);
        return Ok(chain.answer(0));
    }
    let start = fight.save(fight.round_start_for_exact());
    let (units, order) = fight.units_and_order();
    let (mut units, order) = (units.to_vec(), order.to_vec());
    for u in &mut units {
        R::forget_round(&mut u.state, 1);
    }
    let dice = &mut worker.dice;
    let opened = openings(fight, enc, dice, &start, &units, &order)?;
    let orders = orders(fight, enc, dice, limits)?;
    chain.outcomes += (opened.len() * orders.len()) as u64;
    let mut live = Layer::default();
    for (between, po, ko) in &opened {
        for (order, pr, kr) in &orders {
            let key = Key {
                units: &units,
                order,
                between,
            };
            let (id, _) = chain.states.add(key);
            live.add(id, po * pr, ko + kr + 1);
        }
    }
    chain.created = chain.states.len() as u64;
    if enc.initiative.kind == InitiativeKind::Rerolled {
        chain.reorders = orders;
    }
    let mut live = live.drain();
    for round in 1..=enc.max_rounds {
        if live.is_empty() {
            break;
        }
        chain.last_round = round;
        live = chain.round(&mut worker, live, round)?;
        let mut unfinished = Sum::default();
        for &(_, p, _) in &live {
            unfinished.add(p);
        }
        if unfinished.value() < UNFINISHED_BELOW && round < enc.max_rounds {
            chain.totals.unfinished = unfinished.value();
            break;
        }
        if std::env::var_os("SKIRMISH_EXACT_TRACE").is_some() {
            let mass: f64 = live.iter().map(|a| a.1).sum();
            eprintln!(
                "round {round}: {} alive (mass {mass:.3e}), {} states, {} outcomes",
                live.len(),
                chain.created,
                chain.outcomes
            );
        }
    }
    Ok(chain.answer(chain.last_round))
}

/// After a run of `what` under `dice`: count it, and refuse a run that read
/// too many dice or an enumeration with too many outcomes.
pub(super) fn check_run(dice: &PathDice, count: &mut u64, what: &str) -> Result<(), ExactError> {
    if dice.too_deep() {
        return Err(ExactError::TooManyRolls {
            what: what.to_string(),
            limit: MAX_ROLLS,
        });
    }
    *count += 1;
    if *count > MAX_OUTCOMES {
        return Err(ExactError::TooManyOutcomes {
            what: what.to_string(),
            limit: MAX_OUTCOMES,
        });
    }
    Ok(())
}

/// A thread's workspace: a fight to load states into, and dice.
struct Worker<R: Ruleset> {
    fight: Box<Fight<R>>,
    dice: PathDice,
}

impl<R: Ruleset> Worker<R> {
    fn new(enc: &Encounter<R>) -> Self {
        let mut fight = Box::new(Fight::new());
        fight.prepare(enc);
        fight.restart_for_exact(enc);
        Worker {
            fight,
            dice: PathDice::new(),
        }
    }
}

/// A state alive in a layer: its number, probability and roundings.
type Alive = (u32, f64, u32);

/// The states of a layer being filled, by number.
#[derive(Default)]
struct Layer {
    /// Probability and roundings by state number; `None` where absent.
    slots: Vec<Option<(f64, u32)>>,
    /// The numbers present, in the order they arrived.
    present: Vec<u32>,
}

impl Layer {
    #[inline]
    fn add(&mut self, id: u32, p: f64, k: u32) {
        let i = id as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, None);
        }
        match &mut self.slots[i] {
            Some((q, kq)) => {
                *q += p;
                *kq = (*kq).max(k) + 1;
            }
            slot @ None => {
                *slot = Some((p, k));
                self.present.push(id);
            }
        }
    }

    /// The states present, emptied out.
    fn drain(&mut self) -> Vec<Alive> {
        let present = std::mem::take(&mut self.present);
        present
            .into_iter()
            .map(|id| {
                let (p, k) = self.slots[id as usize].take().expect("present");
                (id, p, k)
            })
            .collect()
    }
}

/// A state's transitions (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
struct Transitions {
    /// Worked out yet.
    ready: bool,
    /// The round has no turn left: the children are the next round's.
    round_over: bool,
    /// `children[from..to]` of the chain.
    children: (u32, u32),
    /// `tallies[from..to]` of the chain: what the turn adds to the answer.
    tallies: (u32, u32),
}

/// A state a turn leads to, with the probability it does.
#[derive(Clone, Copy, Debug)]
struct Child {
    id: u32,
    p: f64,
    k: u32,
}

/// One term a turn adds to the answer, per unit of the state's
/// probability: to [`Tallied`] slot `slot`.
#[derive(Clone, Copy, Debug)]
struct Term {
    slot: u8,
    value: f64,
    k: u32,
}

/// What a state's turn adds to the answer, by slot: the wins of each side,
/// draws with nobody standing, survivors of each side (at the fight's end),
/// harm of each side, then the ruleset's counters.
struct Tallied {
    sides: usize,
}

impl Tallied {
    fn win(&self, side: usize) -> u8 {
        side as u8
    }
    fn draw(&self) -> u8 {
        self.sides as u8
    }
    fn survivors(&self, side: usize) -> u8 {
        (self.sides + 1 + side) as u8
    }
    fn damage(&self, side: usize) -> u8 {
        (2 * self.sides + 1 + side) as u8
    }
    fn counter(&self, c: usize) -> u8 {
        (3 * self.sides + 1 + c) as u8
    }
    fn len(&self) -> usize {
        3 * self.sides + 1 + MAX_COUNTERS
    }
}

/// The chain built so far, and the answer's sums.
struct Chain<'a, R: Ruleset> {
    enc: &'a Encounter<R>,
    limits: &'a Limits,
    /// With rerolled initiative: each round's possible orders.
    reorders: Vec<Order>,
    states: StateTable<R::State>,
    transitions: Vec<Transitions>,
    children: Vec<Child>,
    tallies: Vec<Term>,
    /// States numbered so far, in every round.
    created: u64,
    outcomes: u64,
    /// Outcomes the last chunk merged ran.
    outcomes_last_chunk: u64,
    last_round: u32,
    totals: Totals,
}

/// What one chunk of new states gave: their transitions, with the states
/// they lead to numbered in a table of the chunk's own.
struct Worked<S> {
    found: StateTable<S>,
    transitions: Vec<Transitions>,
    children: Vec<Child>,
    tallies: Vec<Term>,
    outcomes: u64,
}

impl<'a, R: Ruleset> Chain<'a, R> {
    fn new(enc: &'a Encounter<R>, limits: &'a Limits) -> Self {
        Chain {
            enc,
            limits,
            reorders: Vec::new(),
            states: StateTable::new(enc.n),
            transitions: Vec::new(),
            children: Vec::new(),
            tallies: Vec::new(),
            created: 0,
            outcomes: 0,
            outcomes_last_chunk: 0,
            last_round: 0,
            totals: Totals::new(enc.max_rounds, enc.sides),
        }
    }

    fn answer(&self, last_round: u32) -> Answer {
        self.totals
            .answer(self.enc, self.created, self.outcomes, last_round)
    }

    /// Play round `round` from the states alive at its start; the states
    /// alive at the next round's start.
    fn round(
        &mut self,
        worker: &mut Worker<R>,
        start: Vec<Alive>,
        round: u32,
    ) -> Result<Vec<Alive>, ExactError> {
        let mut layer = start;
        let mut turned = Layer::default();
        let mut next_round = Layer::default();
        while !layer.is_empty() {
            self.work_out(worker, &layer, round)?;
            if std::env::var_os("SKIRMISH_EXACT_TRACE").is_some() {
                eprintln!(
                    "  round {round}, a layer: {} alive, {} states, {} outcomes",
                    layer.len(),
                    self.created,
                    self.outcomes
                );
            }
            for &(id, p, k) in &layer {
                let t = self.transitions[id as usize];
                if t.round_over && round == self.enc.max_rounds {
                    self.end_at_cap(worker, id, p, k);
                    continue;
                }
                let into = if t.round_over {
                    &mut next_round
                } else {
                    &mut turned
                };
                for c in &self.children[t.children.0 as usize..t.children.1 as usize] {
                    into.add(c.id, p * c.p, k + c.k + 1);
                }
                let terms = &self.tallies[t.tallies.0 as usize..t.tallies.1 as usize];
                self.totals.add_terms(terms, round, p, k);
            }
            layer = turned.drain();
        }
        let next = next_round.drain();
        if R::round_class(round + 1) != R::round_class(round) && !next.is_empty() {
            return Ok(self.renumber(next));
        }
        Ok(next)
    }

    /// The next round is of another class ([`Ruleset::round_class`]): its
    /// states play anew; keep only them, numbered afresh, and forget the
    /// rest.
    fn renumber(&mut self, next: Vec<Alive>) -> Vec<Alive> {
        let mut states = StateTable::new(self.enc.n);
        let renumbered = next
            .into_iter()
            .map(|(id, p, k)| {
                let (units, order) = self.states.state(id as usize);
                let between = &self.states.entries()[id as usize].between;
                let key = Key {
                    units,
                    order,
                    between,
                };
                (states.add(key).0, p, k)
            })
            .collect();
        self.states = states;
        self.transitions.clear();
        self.children.clear();
        self.tallies.clear();
        renumbered
    }

    /// A state alive at the end of the last round: a draw at the cap.
    fn end_at_cap(&mut self, worker: &mut Worker<R>, id: u32, p: f64, k: u32) {
        let enc = self.enc;
        let (units, order) = self.states.state(id as usize);
        let between = self.states.entries()[id as usize].between;
        let fight = &mut worker.fight;
        fight.load(&between, units, order, enc.max_rounds);
        let outcome = Outcome {
            winner: None,
            rounds: enc.max_rounds,
        };
        self.totals.end(fight, enc, outcome, &between.kept, p, k);
        self.totals.draws_at_cap_if(fight, p);
    }

    /// Work out the transitions of the states of `layer` that have none yet.
    fn work_out(
        &mut self,
        worker: &mut Worker<R>,
        layer: &[Alive],
        round: u32,
    ) -> Result<(), ExactError> {
        if self.transitions.len() < self.states.len() {
            self.transitions
                .resize(self.states.len(), Transitions::default());
        }
        let new: Vec<u32> = layer
            .iter()
            .map(|&(id, _, _)| id)
            .filter(|&id| !self.transitions[id as usize].ready)
            .collect();
        if new.is_empty() {
            return Ok(());
        }
        // The first chunk alone: its outcomes per state project what the
        // rest of the layer will run, and a layer that would run past the
        // budget is refused before it is run rather than after minutes.
        let (first, rest) = new.split_at(new.len().min(CHUNK));
        let part = self.work_chunk(worker, first, round);
        self.merge(first, part, round)?;
        if rest.is_empty() {
            return Ok(());
        }
        let per_state = self.outcomes_last_chunk / first.len() as u64;
        let ahead = per_state.saturating_mul(rest.len() as u64);
        if self.outcomes.saturating_add(ahead) > self.limits.max_outcomes {
            return Err(ExactError::WorkAhead {
                limit: self.limits.max_outcomes,
                outcomes: self.outcomes,
                ahead,
                states: rest.len() as u64,
                round,
                max_rounds: self.enc.max_rounds,
            });
        }
        let this = &*self;
        let parts: Vec<Result<Worked<R::State>, ExactError>> = rest
            .par_chunks(CHUNK)
            .map_init(
                || Worker::new(this.enc),
                |w, ids| this.work_chunk(w, ids, round),
            )
            .collect();
        for (ids, part) in rest.chunks(CHUNK).zip(parts) {
            self.merge(ids, part, round)?;
        }
        Ok(())
    }

    /// Take in what a chunk of new states gave: count its work, number the
    /// states it found, and record the transitions of `ids`.
    fn merge(
        &mut self,
        ids: &[u32],
        part: Result<Worked<R::State>, ExactError>,
        round: u32,
    ) -> Result<(), ExactError> {
        {
            let part = part?;
            self.outcomes += part.outcomes;
            self.outcomes_last_chunk = part.outcomes;
            if self.outcomes > self.limits.max_outcomes {
                return Err(self.too_much_work(round));
            }
            // Number the states the chunk found in the chain's table.
            let numbers: Vec<u32> = (0..part.found.len())
                .map(|i| {
                    let (units, order) = part.found.state(i);
                    let between = &part.found.entries()[i].between;
                    let key = Key {
                        units,
                        order,
                        between,
                    };
                    let hash = part.found.entries()[i].hash;
                    let (id, new) = self.states.add_hashed(hash, key);
                    self.created += u64::from(new);
                    id
                })
                .collect();
            if self.created > self.limits.max_states {
                return Err(ExactError::TooManyStates {
                    limit: self.limits.max_states,
                    states: self.created,
                    round,
                    max_rounds: self.enc.max_rounds,
                });
            }
            if self.transitions.len() < self.states.len() {
                self.transitions
                    .resize(self.states.len(), Transitions::default());
            }
            for (&id, t) in ids.iter().zip(&part.transitions) {
                let children = self.children.len() as u32;
                self.children.extend(
                    part.children[t.children.0 as usize..t.children.1 as usize]
                        .iter()
                        .map(|c| Child {
                            id: numbers[c.id as usize],
                            ..*c
                        }),
                );
                let tallies = self.tallies.len() as u32;
                self.tallies
                    .extend_from_slice(&part.tallies[t.tallies.0 as usize..t.tallies.1 as usize]);
                self.transitions[id as usize] = Transitions {
                    ready: true,
                    round_over: t.round_over,
                    children: (children, self.children.len() as u32),
                    tallies: (tallies, self.tallies.len() as u32),
                };
            }
        }
        Ok(())
    }

    fn too_much_work(&self, round: u32) -> ExactError {
        ExactError::TooMuchWork {
            limit: self.limits.max_outcomes,
            outcomes: self.outcomes,
            states: self.created,
            round,
            max_rounds: self.enc.max_rounds,
        }
    }

    /// Work out the transitions of states `ids`, in round `round`.
    fn work_chunk(
        &self,
        worker: &mut Worker<R>,
        ids: &[u32],
        round: u32,
    ) -> Result<Worked<R::State>, ExactError> {
        let enc = self.enc;
        let slots = Tallied { sides: enc.sides };
        let mut out = Worked {
            found: StateTable::new(enc.n),
            transitions: Vec::with_capacity(ids.len()),
            children: Vec::new(),
            tallies: Vec::new(),
            outcomes: 0,
        };
        let mut sums = vec![(0.0f64, 0u32); slots.len()];
        // Where each state the chunk found sits among the current state's
        // children: `(state serial + 1, index)`, so a child is found in one
        // look-up however many children a state has.
        let mut place: Vec<(u32, u32)> = Vec::new();
        let Worker { fight, dice } = worker;
        for (serial, &id) in ids.iter().enumerate() {
            let serial = serial as u32 + 1;
            let (units, order) = self.states.state(id as usize);
            let before = self.states.entries()[id as usize].between;
            fight.load(&before, units, order, round);
            let mut cursor = before.cursor;
            let first_child = out.children.len();
            // A turn under way goes on from its step; otherwise the next
            // unit begins its turn.
            let (actor, step) = match before.turn {
                Some((actor, step)) => (Some(actor as usize), Some(step)),
                None => (fight.next_actor(enc, &mut cursor), None),
            };
            let Some(actor) = actor else {
                // The round is over: on to the next, in the same order or
                // in each new one.
                let mut between = before;
                between.cursor = fight.round_start_for_exact();
                // The units as of the next round.
                fight.forget_round(round + 1);
                let same = [(order.to_vec(), 1.0, 0)];
                let orders: &[Order] = if self.reorders.is_empty() {
                    &same
                } else {
                    &self.reorders
                };
                for (order, q, kq) in orders {
                    // A new round's order (rerolled) settled like any.
                    fight.set_order_for_exact(order);
                    let mut settled = between;
                    fight.settle_order(&mut settled.cursor);
                    let (units, order) = fight.units_and_order();
                    let key = Key {
                        units,
                        order,
                        between: &settled,
                    };
                    let (child, _) = out.found.add(key);
                    out.children.push(Child {
                        id: child,
                        p: *q,
                        k: *kq,
                    });
                }
                let (c, t) = (out.children.len() as u32, out.tallies.len() as u32);
                out.transitions.push(Transitions {
                    ready: true,
                    round_over: true,
                    children: (first_child as u32, c),
                    tallies: (t, t),
                });
                continue;
            };
            dice.reset();
            let mut count = 0u64;
            loop {
                dice.rewind();
                fight.load(&before, units, order, round);
                let next = match step {
                    Some(step) => fight.step_turn(enc, dice, actor, step),
                    None => fight.begin_turn(enc, dice, actor),
                };
                // The fight is judged when a turn is over, not between its
                // steps (what the end of a turn does can change who stands).
                let over = next.is_none() && fight.is_over();
                check_run(dice, &mut count, "a turn")?;
                let (q, kq) = (dice.probability(), dice.roundings());
                if over {
                    let outcome = fight.outcome(enc.sides, round);
                    R::finish(fight, enc, outcome);
                    let slot = match outcome.winner {
                        Some(side) => slots.win(side as usize),
                        None => slots.draw(),
                    };
                    add(&mut sums[slot as usize], q, kq);
                    for s in 0..enc.sides {
                        let standing = fight.standing(s);
                        if standing != 0 {
                            let slot = slots.survivors(s) as usize;
                            add(&mut sums[slot], q * f64::from(standing), kq + 1);
                        }
                    }
                } else {
                    fight.forget_round(round);
                    let mut cursor = cursor;
                    fight.settle_order(&mut cursor);
                    let (units, order) = fight.units_and_order();
                    let mut between = fight.save(cursor);
                    between.turn = next.map(|step| (actor as u8, step));
                    let key = Key {
                        units,
                        order,
                        between: &between,
                    };
                    let (child, _) = out.found.add(key);
                    if place.len() <= child as usize {
                        place.resize(child as usize + 1, (0, 0));
                    }
                    let (seen, at) = place[child as usize];
                    if seen == serial {
                        let c = &mut out.children[at as usize];
                        c.p += q;
                        c.k = c.k.max(kq) + 1;
                    } else {
                        place[child as usize] = (serial, out.children.len() as u32);
                        out.children.push(Child {
                            id: child,
                            p: q,
                            k: kq,
                        });
                    }
                }
                for s in 0..enc.sides {
                    let d = fight.damage[s];
                    if d != 0 {
                        add(
                            &mut sums[slots.damage(s) as usize],
                            q * f64::from(d),
                            kq + 1,
                        );
                    }
                }
                let mut kept = [0u32; MAX_COUNTERS];
                for (&c, &v) in R::COUNTERS_READ.iter().zip(&before.kept) {
                    kept[c] = v;
                }
                for c in 0..R::COUNTERS.len() {
                    let d = fight.counters[c] - kept[c];
                    if d != 0 {
                        add(
                            &mut sums[slots.counter(c) as usize],
                            q * f64::from(d),
                            kq + 1,
                        );
                    }
                }
                if !dice.advance() {
                    break;
                }
            }
            out.outcomes += count;
            if self.outcomes + out.outcomes > self.limits.max_outcomes {
                let mut over = self.too_much_work(round);
                if let ExactError::TooMuchWork { outcomes, .. } = &mut over {
                    *outcomes += out.outcomes;
                }
                return Err(over);
            }
            let first_term = out.tallies.len() as u32;
            for (slot, sum) in sums.iter_mut().enumerate() {
                if sum.0 != 0.0 {
                    out.tallies.push(Term {
                        slot: slot as u8,
                        value: sum.0,
                        k: sum.1,
                    });
                }
                *sum = (0.0, 0);
            }
            out.transitions.push(Transitions {
                ready: true,
                round_over: false,
                children: (first_child as u32, out.children.len() as u32),
                tallies: (first_term, out.tallies.len() as u32),
            });
        }
        Ok(out)
    }
}

/// Add `x` (with `k` roundings) to a plain sum with its roundings.
#[inline]
fn add(sum: &mut (f64, u32), x: f64, k: u32) {
    if sum.0 == 0.0 {
        *sum = (x, k);
    } else {
        sum.0 += x;
        sum.1 = sum.1.max(k) + 1;
    }
}

/// The answer's sums so far.
#[derive(Clone, Debug)]
struct Totals {
    wins: [Sum; MAX_SIDES],
    draws: Sum,
    draws_at_cap: Sum,
    rounds: Vec<Sum>,
    survivors: [Sum; MAX_SIDES],
    damage: [Sum; MAX_SIDES],
    counters: [Sum; MAX_COUNTERS],
    /// The most roundings in any term summed.
    roundings: u64,
    sides: usize,
    /// The probability of the fights left running ([`Answer::unfinished`]).
    unfinished: f64,
}

impl Totals {
    fn new(max_rounds: u32, sides: usize) -> Self {
        Totals {
            sides,
            wins: [Sum::default(); MAX_SIDES],
            draws: Sum::default(),
            draws_at_cap: Sum::default(),
            rounds: vec![Sum::default(); max_rounds as usize + 1],
            survivors: [Sum::default(); MAX_SIDES],
            damage: [Sum::default(); MAX_SIDES],
            counters: [Sum::default(); MAX_COUNTERS],
            roundings: 0,
            unfinished: 0.0,
        }
    }

    /// A state of probability `p` (`k` roundings) in round `round` played
    /// its turn: add what the turn adds, each term times `p`.
    fn add_terms(&mut self, terms: &[Term], round: u32, p: f64, k: u32) {
        let sides = self.sides;
        let mut ended = Sum::default();
        for term in terms {
            let x = p * term.value;
            self.roundings = self.roundings.max(u64::from(k) + u64::from(term.k) + 1);
            let slot = term.slot as usize;
            if slot < sides {
                self.wins[slot].add(x);
                ended.add(x);
            } else if slot == sides {
                self.draws.add(x);
                ended.add(x);
            } else if slot <= 2 * sides {
                self.survivors[slot - sides - 1].add(x);
            } else if slot <= 3 * sides {
                self.damage[slot - 2 * sides - 1].add(x);
            } else {
                self.counters[slot - 3 * sides - 1].add(x);
            }
        }
        if ended.value() != 0.0 {
            self.rounds[round as usize].add_sum(&ended);
        }
    }

    /// A fight of probability `w` that ends with `outcome` now (the rules'
    /// [`Ruleset::finish`] settles it first): at the start, or at the cap.
    fn end<R: Ruleset>(
        &mut self,
        fight: &mut Fight<R>,
        enc: &Encounter<R>,
        outcome: Outcome,
        kept: &[u32],
        w: f64,
        k: u32,
    ) {
        R::finish(fight, enc, outcome);
        self.roundings = self.roundings.max(u64::from(k) + 1);
        let mut before = [0u32; MAX_COUNTERS];
        for (&c, &v) in R::COUNTERS_READ.iter().zip(kept) {
            before[c] = v;
        }
        let used = R::COUNTERS.len();
        let now = &fight.counters[..used];
        for ((sum, &now), &was) in self.counters.iter_mut().zip(now).zip(&before) {
            if now != was {
                sum.add(w * f64::from(now - was));
            }
        }
        match outcome.winner {
            Some(side) => self.wins[side as usize].add(w),
            None => self.draws.add(w),
        }
        self.rounds[outcome.rounds as usize].add(w);
        for s in 0..enc.sides {
            let standing = fight.standing(s);
            if standing != 0 {
                self.survivors[s].add(w * f64::from(standing));
            }
        }
    }

    /// After [`Totals::end`] at the cap: a draw at the cap if sides are
    /// still standing.
    fn draws_at_cap_if<R: Ruleset>(&mut self, fight: &Fight<R>, w: f64) {
        if fight.sides_standing() > 1 {
            self.draws_at_cap.add(w);
        }
    }

    fn answer<R: Ruleset>(
        &self,
        enc: &Encounter<R>,
        states: u64,
        outcomes: u64,
        last_round: u32,
    ) -> Answer {
        let values = |sums: &[Sum]| -> [f64; MAX_SIDES] {
            std::array::from_fn(|i| sums.get(i).map_or(0.0, Sum::value))
        };
        Answer {
            sides: enc.sides,
            wins: values(&self.wins),
            draws: self.draws.value(),
            draws_at_cap: self.draws_at_cap.value(),
            rounds: self.rounds.iter().map(Sum::value).collect(),
            survivors: values(&self.survivors),
            damage: values(&self.damage),
            counters: std::array::from_fn(|i| self.counters[i].value()),
            states,
            outcomes,
            last_round,
            unfinished: self.unfinished,
            // The terms' roundings, the compensated sums' own (2), and one
            // for their second-order term.
            relative_error: gamma(self.roundings + 3),
        }
    }
}
