//! Where units stand on a map as a fight goes, read from its events (the
//! kernel reports every move and every unit going out or coming back): for
//! `falls.png` (where units fell, over every fight of the baseline cell)
//! and for fights.md's pictures of a shown fight's start and end.
//!
//! Both fight the run's fights again with an observer and the same seeds,
//! so the run itself is neither slowed nor changed: the kernel's
//! unobserved fights build no event at all (see
//! [`crate::engine::observe`]). Only a run on a map does this.

use crate::engine::ground::unpack;
use crate::engine::observe::{Event, Observer};
use crate::map::{Map, Square};
use crate::results::{GroundReport, RunResults, UnitPlace};
use crate::run::Plan;

/// Every unit's square and whether it is out of the fight, as the events
/// of one fight tell it.
#[derive(Clone, Debug)]
pub struct Places {
    /// Each unit's side and packed start square, in encounter order.
    units: Vec<(u8, i32)>,
    /// Each unit's packed square now.
    pub at: Vec<i32>,
    /// Each unit out of the fight now.
    pub out: Vec<bool>,
}

impl Places {
    /// Units (side, packed start square) at their start, all in the fight.
    pub fn new(units: &[(u8, i32)]) -> Places {
        Places {
            units: units.to_vec(),
            at: units.iter().map(|u| u.1).collect(),
            out: vec![false; units.len()],
        }
    }

    /// Follow one event.
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Moved { unit, to, .. } => {
                if let Some(a) = self.at.get_mut(unit as usize) {
                    *a = to;
                }
            }
            Event::Out { unit } => {
                if let Some(o) = self.out.get_mut(unit as usize) {
                    *o = true;
                }
            }
            Event::Back { unit } => {
                if let Some(o) = self.out.get_mut(unit as usize) {
                    *o = false;
                }
            }
            _ => {}
        }
    }

    /// Back to the start of a fight.
    pub fn restart(&mut self) {
        for (a, u) in self.at.iter_mut().zip(&self.units) {
            *a = u.1;
        }
        self.out.fill(false);
    }

    /// Unit `i`'s square now.
    pub fn square(&self, i: usize) -> Square {
        unpack(self.at[i])
    }
}

/// Counts, over the fights it watches, where units were when the fight
/// ended out of it: per side, per square of the map (row-major, as
/// [`Map::index`]). A unit that went out and came back counts only if it is
/// out at the end, on the square it went out on.
pub struct Falls {
    places: Places,
    width: usize,
    /// Per side, per square.
    pub counts: Vec<Vec<u32>>,
}

impl Falls {
    /// For `sides` sides of `units` (side, packed start square) on `map`.
    pub fn new(map: &Map, sides: usize, units: &[(u8, i32)]) -> Falls {
        Falls {
            places: Places::new(units),
            width: map.width(),
            counts: vec![vec![0; map.len()]; sides],
        }
    }
}

impl Observer for Falls {
    const ACTIVE: bool = true;

    fn event(&mut self, event: &Event) {
        self.places.apply(event);
        if let Event::End { .. } = event {
            for (i, &(side, _)) in self.places.units.iter().enumerate() {
                if self.places.out[i] {
                    let s = self.places.square(i);
                    let k = s.y as usize * self.width + s.x as usize;
                    if let Some(c) = self
                        .counts
                        .get_mut(side as usize)
                        .and_then(|c| c.get_mut(k))
                    {
                        *c += 1;
                    }
                }
            }
            self.places.restart();
        }
    }
}

/// Where every unit of cell `cell` of `plan` stands at the start of a
/// fight and at its end, by `events` (a watched fight's); empty lists on
/// the front.
pub fn start_and_end(
    plan: &Plan,
    cell: usize,
    events: &[Event],
) -> (Vec<UnitPlace>, Vec<UnitPlace>) {
    let Some(Some(m)) = plan.maps.get(cell) else {
        return (Vec::new(), Vec::new());
    };
    let roster = super::roster(plan, cell);
    let units: Vec<(u8, i32)> = m
        .starts
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let side = roster.side_of(i as u8).unwrap_or(0);
            (side, crate::engine::ground::pack(s))
        })
        .collect();
    let mut places = Places::new(&units);
    let list = |p: &Places| -> Vec<UnitPlace> {
        (0..units.len())
            .map(|i| UnitPlace {
                name: roster.unit(i as u8),
                side: units[i].0 as usize,
                square: p.square(i),
                standing: !p.out[i],
            })
            .collect()
    };
    let start = list(&places);
    for e in events {
        places.apply(e);
    }
    (start, list(&places))
}

/// What the report shows of the ground of `results` (a run of `plan` in
/// batches of `size`), when the run is on a map: the baseline cell's map
/// and start squares, where units fell over every fight of the baseline
/// cell (fought again with an observer, in parallel on the current rayon
/// pool), the axes that change the map, and the groups that cannot reach
/// an enemy. `None` on the front.
pub fn ground_report(plan: &Plan, results: &RunResults, size: u32) -> Option<GroundReport> {
    let info = &results.scenario;
    let cell = info.baseline;
    let m = plan.maps.get(cell)?.as_ref()?;
    let fights = results.cells.get(cell)?.tally.fights;
    let falls = plan.falls(cell, info.seed, info.streams, size, fights);
    // An axis changes the map when two cells that differ only in it have
    // different maps.
    let map_of = |c: usize| {
        plan.maps
            .get(c)
            .and_then(|m| m.as_ref())
            .map(|m| &m.ground.map)
    };
    let changed_by: Vec<String> = info
        .axes
        .iter()
        .enumerate()
        .filter(|&(a, _)| {
            (0..plan.cells.len()).any(|c| {
                (0..plan.cells.len()).any(|d| {
                    let only_a = (0..info.axes.len())
                        .all(|b| (b == a) != (plan.cells[c][b] == plan.cells[d][b]));
                    only_a && map_of(c) != map_of(d)
                })
            })
        })
        .map(|(_, axis)| axis.clone())
        .collect();
    let unreachable = plan
        .maps
        .iter()
        .map(|m| {
            m.as_ref().map_or_else(Vec::new, |m| {
                m.unreachable
                    .iter()
                    .map(|&g| {
                        let (name, side, _) = &m.groups[g];
                        let side = info.sides.get(*side).map_or("?", |s| s.name.as_str());
                        format!("`{name}` ({side})")
                    })
                    .collect()
            })
        })
        .collect();
    Some(GroundReport {
        map: m.ground.map.clone(),
        groups: m.groups.clone(),
        falls,
        fights,
        changed_by,
        unreachable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ground::pack;
    use crate::engine::observe::EndCause;

    fn end() -> Event {
        Event::End {
            winner: Some(0),
            rounds: 1,
            cause: EndCause::LastSideStanding,
        }
    }

    #[test]
    fn falls_count_where_units_are_out_at_the_end_and_start_again() {
        let map = Map::open(3, 2);
        let a = pack(Square::new(0, 0));
        let b = pack(Square::new(2, 1));
        let mut falls = Falls::new(&map, 2, &[(0, a), (1, b)]);
        // Fight 1: blue moves to (1, 1) and goes out there.
        let to = pack(Square::new(1, 1));
        for e in [
            Event::Moved {
                unit: 1,
                from: b,
                to,
            },
            Event::Out { unit: 1 },
            end(),
        ] {
            falls.event(&e);
        }
        // Fight 2: from the start again; red goes out, comes back, and
        // stands at the end; blue goes out where it started.
        for e in [
            Event::Out { unit: 0 },
            Event::Back { unit: 0 },
            Event::Out { unit: 1 },
            end(),
        ] {
            falls.event(&e);
        }
        assert_eq!(falls.counts[0], vec![0; 6]);
        assert_eq!(falls.counts[1], vec![0, 0, 0, 0, 1, 1]);
    }
}
