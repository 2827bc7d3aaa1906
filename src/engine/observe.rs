//! Watching a fight: the events the kernel and the rulesets report, the
//! [`Observer`] that receives them, and [`Watched`], the dice wrapper that
//! carries an observer into a fight.
//!
//! The observer rides with the dice because the dice already reach every
//! rule: a ruleset reports what a roll meant through [`Turn::note`], which
//! hands the event to [`Dice::note`]; [`Watched`] reports every die it rolls
//! and passes notes on to its observer. Production dice ([`crate::dice::RngDice`])
//! are not watched: [`Dice::WATCHED`] is false, every `if D::WATCHED` is
//! compiled away and no event is even built, so the fight loop costs the same
//! as before and allocates nothing (`kernel_allocates_nothing`). An observer
//! may allocate (the replay's recorder keeps a `Vec`).
//!
//! Events are small `Copy` values naming units by index; turning them into
//! words is the replay module's business, not the kernel's.
//!
//! [`Turn::note`]: super::Turn::note

use super::Condition;
use crate::dice::Dice;

/// No unit: the `target` of an event that has none.
pub const NOBODY: u8 = u8::MAX;

/// No unit, as the rules pass it to [`Turn`](super::Turn)'s `note_*`
/// services (which take unit indices as `usize`).
pub const NO_TARGET: usize = usize::MAX;

/// Why a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndCause {
    /// One side has units standing, every other side none.
    LastSideStanding,
    /// Every side went down at once.
    NobodyStanding,
    /// The round cap (`max_rounds`) was reached: a draw.
    RoundCap,
}

impl EndCause {
    /// The cause in a few words (also its name in `--json`).
    pub fn name(self) -> &'static str {
        match self {
            EndCause::LastSideStanding => "last side standing",
            EndCause::NobodyStanding => "nobody standing",
            EndCause::RoundCap => "round cap",
        }
    }
}

/// A load track that harm adds to (thrum: "Fatigue Load", "Stress Load").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Track {
    Fatigue,
    Stress,
}

impl Track {
    /// The track's name as the rules write it (also its name in `--json`,
    /// in lower case).
    pub fn name(self) -> &'static str {
        match self {
            Track::Fatigue => "Fatigue",
            Track::Stress => "Stress",
        }
    }
}

/// One thing that happened in a fight. Units are indices into the
/// encounter's units; [`NOBODY`] where an event has no target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// A die was rolled and its face read (a die rolled only to be thrown
    /// away, such as a miss's damage die, is not reported).
    Die { sides: u32, face: u32 },
    /// A unit's place in the turn order and the number that put it there
    /// (an initiative roll with its modifier, or a stat), in turn order.
    Initiative { unit: u8, total: i32 },
    /// A round begins.
    Round { round: u32 },
    /// A unit's turn begins.
    Turn { unit: u8 },
    /// `unit` picked `target` at random among equally good choices (the
    /// die before it made the choice).
    Target { unit: u8, target: u8 },
    /// A roll checked against a number: `roll` is what the dice gave (after
    /// keeping, doubling, ...), `modifier` everything added to it, `need` the
    /// number to reach (a target number, a defence, an opposed total), and
    /// `passed` whether it did (hit, save made, morale held). `rule` names
    /// the rule ("attack", "morale", "death clock", ...).
    Check {
        unit: u8,
        target: u8,
        rule: &'static str,
        roll: i32,
        modifier: i32,
        need: i32,
        passed: bool,
    },
    /// A roll whose value is used as it is, with no number to reach
    /// (damage before it is applied, a table roll): `total` = dice + modifier.
    /// `dice`: how many of the dice rolled since the last event that read
    /// dice are this roll's, the last ones (a luck die rolled after an
    /// attack's dice, which the attack's check then reads); 0: all of them.
    Roll {
        unit: u8,
        target: u8,
        rule: &'static str,
        total: i32,
        dice: u8,
    },
    /// `unit` attacks `target` with weapon `weapon` (its number among the
    /// scenario's `[weapons]` tables, in file order), before the attack's
    /// roll.
    Attack { unit: u8, target: u8, weapon: u16 },
    /// `unit` did `amount` harm to `target` (the ruleset's harm unit: hit
    /// points, endurance and health, loads), which has `left` of `max` left.
    /// The sum over a fight per side is the fight's damage tally.
    Harm {
        unit: u8,
        target: u8,
        amount: u32,
        left: u32,
        max: u32,
    },
    /// `unit` did `amount` harm to `target` as a load on one of its
    /// tracks (thrum's Fatigue or Stress), which now stands at `load`
    /// against its `tolerance`. Counted in the fight's damage tally like
    /// [`Event::Harm`].
    Load {
        unit: u8,
        target: u8,
        track: Track,
        amount: u32,
        load: u32,
        tolerance: u32,
    },
    /// Something a rule decided about `unit` (and `target`, if any): a
    /// critical hit, a misfire, a unit fleeing or dying.
    Note {
        unit: u8,
        target: u8,
        what: &'static str,
    },
    /// A unit moved on the front.
    Moved { unit: u8, from: i32, to: i32 },
    /// A unit gained or lost a condition.
    Condition {
        unit: u8,
        condition: Condition,
        gained: bool,
    },
    /// A unit went out of the fight (down, dead, fled).
    Out { unit: u8 },
    /// A unit came back into the fight.
    Back { unit: u8 },
    /// The fight is over: its winner (`None`: a draw), the rounds it took
    /// and why it ended.
    End {
        winner: Option<u8>,
        rounds: u32,
        cause: EndCause,
    },
}

/// Receives a fight's events. The default observes nothing, and
/// [`Observer::ACTIVE`] false lets the kernel skip building events at all.
pub trait Observer {
    /// Whether this observer wants events.
    const ACTIVE: bool = false;

    /// One event, in the order things happened.
    #[inline(always)]
    fn event(&mut self, _event: &Event) {}
}

/// The observer that observes nothing: what every simulated fight runs with.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// Keeps every event (a replay's tape), and on a map the squares of each
/// move.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub events: Vec<Event>,
    /// The map the fight is on (`None`: the front, or paths not wanted).
    pub ground: Option<&'static super::Ground>,
    /// For a [`Event::Moved`] on `ground`: its index in `events` and the
    /// squares of the move, where it began and ended included, when the
    /// move was one path (else only its ends are known, from the event).
    pub paths: Vec<(usize, Vec<crate::map::Square>)>,
}

impl Observer for Recorder {
    const ACTIVE: bool = true;

    fn event(&mut self, event: &Event) {
        self.events.push(*event);
        if let (Some(g), Event::Moved { from, to, .. }) = (self.ground, event) {
            // The kernel reports a move after it is made, on the thread that
            // made it, whose buffers still hold its squares
            // ([`super::Turn::last_path`]); they are this move's when they
            // begin and end where it did.
            let (a, b) = (super::ground::unpack(*from), super::ground::unpack(*to));
            super::ground::with_scratch(g, |sc| {
                if sc.path.first() == Some(&a) && sc.path.last() == Some(&b) {
                    // A move walked without a search keeps only its ends:
                    // its squares are searched as `Turn::last_path` does.
                    sc.walk_path(g, a);
                    self.paths.push((self.events.len() - 1, sc.path.clone()));
                }
            });
        }
    }
}

/// An observer that only counts the dice the rules read and the turns
/// taken: the cost table's "dice per fight" and "turns per fight"
/// (`benches/cost.rs`), so that a fight's cost can be put per die.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counting {
    pub dice: u64,
    pub turns: u64,
}

impl std::ops::AddAssign for Counting {
    fn add_assign(&mut self, other: Counting) {
        self.dice += other.dice;
        self.turns += other.turns;
    }
}

impl Observer for Counting {
    const ACTIVE: bool = true;

    #[inline]
    fn event(&mut self, event: &Event) {
        match event {
            Event::Die { .. } => self.dice += 1,
            Event::Turn { .. } => self.turns += 1,
            _ => {}
        }
    }
}

/// Dice with an observer: every die read is reported as [`Event::Die`] and
/// every [`Dice::note`] goes to the observer. Rolls the same dice, in the
/// same order, as the dice it wraps.
pub struct Watched<'a, D: Dice, O: Observer> {
    pub dice: &'a mut D,
    pub observer: &'a mut O,
}

impl<D: Dice, O: Observer> Dice for Watched<'_, D, O> {
    const WATCHED: bool = O::ACTIVE;

    fn roll(&mut self, sides: u32) -> u32 {
        let face = self.dice.roll(sides);
        self.observer.event(&Event::Die { sides, face });
        face
    }

    fn d20(&mut self) -> u32 {
        let face = self.dice.d20();
        self.observer.event(&Event::Die { sides: 20, face });
        face
    }

    fn roll_if(&mut self, take: bool, sides: u32) -> u32 {
        // The wrapped dice decide whether an unused die is rolled (so the
        // stream is the one the run used); only a used one is reported.
        let face = self.dice.roll_if(take, sides);
        if take {
            self.observer.event(&Event::Die { sides, face });
        }
        face
    }

    fn note(&mut self, event: &Event) {
        self.observer.event(event);
    }
}
