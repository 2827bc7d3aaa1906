//! Tests of the map's core: parsing and its errors, metrics against
//! hand-worked values, sight symmetric on every pair of random maps, fields
//! and reaches against brute force, thrum's cover from its text's examples,
//! and searches that allocate nothing.

use super::field::{Corners, Costs, Difficult, Field, Graph, Workspace, UNREACHABLE};
use super::geometry::{flanked, opposite_sides, Metric, Shape, Square, STEPS};
use super::sight::{
    cover_between, line_of_sight, thrum_cover, walk_line, CoverTable, Crossing, SightTable,
    ThrumCover,
};
use super::terrain::{Obstacle, Terrain};
use super::{FieldCache, Map, MapError, SquareSet, MAX_SIDE};
use crate::engine::Cover;

const NO_LEGEND: [(&str, &str); 0] = [];

fn sq(x: u8, y: u8) -> Square {
    Square::new(x, y)
}

fn map(text: &str) -> Map {
    Map::parse(text, NO_LEGEND).unwrap()
}

/// SplitMix64: a fixed-seed source for random maps.
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random map of walls, high and low cover, difficult ground and hills.
fn random_map(rng: &mut Mix, w: usize, h: usize) -> Map {
    let mut m = Map::open(w, h);
    for s in m.squares().collect::<Vec<_>>() {
        let t = match rng.below(20) {
            0..=2 => Terrain::WALL,
            3 => Terrain::HIGH_COVER,
            4 => Terrain::LOW_COVER,
            5 | 6 => Terrain::DIFFICULT,
            7 => Terrain {
                elevation: rng.below(5) as i8,
                ..Terrain::OPEN
            },
            8 => Terrain {
                elevation: rng.below(4) as i8,
                difficult: true,
                ..Terrain::OPEN
            },
            _ => Terrain::OPEN,
        };
        m.set(s, t);
    }
    m
}

// ---------------------------------------------------------------- parsing

#[test]
fn parses_the_default_legend() {
    let m = map("\n  \n#.-=~_u\nA.3B..A\n..9..0Z\n\n   \n");
    assert_eq!((m.width(), m.height(), m.len()), (7, 3, 21));
    assert_eq!(m.at(sq(0, 0)), Terrain::WALL);
    assert_eq!(m.at(sq(1, 0)), Terrain::OPEN);
    assert_eq!(m.at(sq(2, 0)).obstacle, Obstacle::Low);
    assert_eq!(m.at(sq(3, 0)).obstacle, Obstacle::High);
    assert!(m.at(sq(4, 0)).difficult);
    assert_eq!(m.at(sq(5, 0)).dug, Cover::Half);
    assert_eq!(m.at(sq(6, 0)).dug, Cover::Half);
    assert_eq!(m.at(sq(2, 1)).elevation, 3);
    assert_eq!(m.at(sq(2, 2)).elevation, 9);
    assert_eq!(m.at(sq(5, 2)).elevation, 0);
    assert_eq!(m.at(sq(0, 1)), Terrain::OPEN);
    assert_eq!(m.starts('A'), &[sq(0, 1), sq(6, 1)]);
    assert_eq!(m.starts('B'), &[sq(3, 1)]);
    assert_eq!(m.starts('Z'), &[sq(6, 2)]);
    assert!(m.starts('C').is_empty() && m.starts('a').is_empty());
    assert_eq!(m.start_letters().collect::<String>(), "ABZ");
    // Properties of the legend's terrain.
    assert!(!Terrain::WALL.passable() && Terrain::WALL.blocks_sight());
    assert!(!Terrain::HIGH_COVER.passable() && !Terrain::HIGH_COVER.blocks_sight());
    assert!(Terrain::LOW_COVER.passable() && !Terrain::LOW_COVER.blocks_sight());
    assert_eq!(Terrain::LOW_COVER.cover(), Cover::Half);
    assert_eq!(Terrain::HIGH_COVER.cover(), Cover::ThreeQuarters);
}

#[test]
fn trailing_spaces_and_carriage_returns_are_trimmed() {
    let m = map("\r\n..#  \r\n.A.\t\r\n");
    assert_eq!((m.width(), m.height()), (3, 2));
    assert_eq!(m.at(sq(2, 0)), Terrain::WALL);
    assert_eq!(m.starts('A'), &[sq(1, 1)]);
}

#[test]
fn a_designers_legend_adds_and_overrides() {
    let legend = [
        ("*", "difficult+elevation:2"),
        ("A", "trench"),
        (".", "difficult"),
        ("o", "low-cover + difficult"),
        ("P", "firing-position"),
        ("d", "deep-trench"),
        ("v", "elevation:-3"),
    ];
    let m = Map::parse("*A.o\nPdv#", legend).unwrap();
    assert_eq!(
        m.at(sq(0, 0)),
        Terrain {
            difficult: true,
            elevation: 2,
            ..Terrain::OPEN
        }
    );
    assert_eq!(m.at(sq(1, 0)), Terrain::TRENCH);
    assert_eq!(m.starts('A'), &[sq(1, 0)]);
    assert!(m.at(sq(2, 0)).difficult);
    assert_eq!(m.at(sq(3, 0)).obstacle, Obstacle::Low);
    assert!(m.at(sq(3, 0)).difficult);
    assert_eq!(m.at(sq(0, 1)).dug, Cover::ThreeQuarters);
    assert_eq!(m.starts('P'), &[sq(0, 1)]);
    assert_eq!(m.at(sq(1, 1)).dug, Cover::Full);
    assert_eq!(m.at(sq(2, 1)).elevation, -3);
    assert_eq!(m.at(sq(3, 1)), Terrain::WALL);
    // A legend as a map of strings (the shape a TOML table deserialises to).
    let table: std::collections::BTreeMap<String, String> =
        [("@".to_string(), "wall".to_string())].into();
    assert_eq!(
        Map::parse("@.", &table).unwrap().at(sq(0, 0)),
        Terrain::WALL
    );
}

#[test]
fn every_error_names_where() {
    for empty in ["", "\n", "  \n\t\n \r\n"] {
        assert_eq!(Map::parse(empty, NO_LEGEND), Err(MapError::Empty));
    }
    assert_eq!(
        Map::parse("\n...\n..\n...", NO_LEGEND),
        Err(MapError::Ragged {
            row: 2,
            column: 3,
            expected: 3,
            found: 2
        })
    );
    assert_eq!(
        Map::parse("...\n....", NO_LEGEND),
        Err(MapError::Ragged {
            row: 2,
            column: 4,
            expected: 3,
            found: 4
        })
    );
    // A blank line between rows is a ragged row.
    assert!(matches!(
        Map::parse("...\n\n...", NO_LEGEND),
        Err(MapError::Ragged { row: 2, .. })
    ));
    let e = Map::parse("...\n.x.", [("*", "wall")]).unwrap_err();
    assert_eq!(
        e,
        MapError::Unknown {
            row: 2,
            column: 2,
            found: 'x',
            valid: ". # - = ~ _ u 0-9 A-Z *".to_string()
        }
    );
    let text = e.to_string();
    assert!(
        text.contains("row 2, column 2") && text.contains("'x'"),
        "{text}"
    );
    // Leading spaces are cells.
    assert!(matches!(
        Map::parse("  ...\n  ...", NO_LEGEND),
        Err(MapError::Unknown {
            row: 1,
            column: 1,
            found: ' ',
            ..
        })
    ));
    let wide = ".".repeat(MAX_SIDE + 1);
    assert_eq!(
        Map::parse(&wide, NO_LEGEND),
        Err(MapError::TooLarge {
            row: 1,
            column: MAX_SIDE + 1
        })
    );
    let tall = "..\n".repeat(MAX_SIDE + 1);
    assert_eq!(
        Map::parse(&tall, NO_LEGEND),
        Err(MapError::TooLarge {
            row: MAX_SIDE + 1,
            column: 1
        })
    );
    let largest = format!("{}\n", ".".repeat(MAX_SIDE)).repeat(MAX_SIDE);
    assert_eq!(
        Map::parse(&largest, NO_LEGEND).unwrap().len(),
        MAX_SIDE * MAX_SIDE
    );
    assert!(matches!(
        Map::parse(".", [("ab", "wall")]),
        Err(MapError::Legend { key, .. }) if key == "ab"
    ));
    let e = Map::parse(".", [("*", "lava")]).unwrap_err();
    assert!(
        e.to_string()
            .contains("\"lava\" is not a terrain; valid: open, wall"),
        "{e}"
    );
    assert!(Map::parse(".", [("*", "elevation:12")]).is_err());
    assert!(Map::parse(".", [("*", "elevation:x")]).is_err());
}

// ---------------------------------------------------------------- geometry

#[test]
fn metrics_against_hand_worked_values() {
    let o = sq(10, 10);
    // thrum: "7 squares to the west and 4 squares to the north … 7 squares away".
    assert_eq!(Metric::Chebyshev.distance(o, sq(3, 6)), 7);
    // dicestep: three diagonals are 1 + 2 + 1 = 4 m; two are 1 + 2 = 3 m.
    assert_eq!(Metric::Alternating.distance(o, sq(13, 13)), 4);
    assert_eq!(Metric::Alternating.distance(o, sq(8, 8)), 3);
    assert_eq!(Metric::Alternating.distance(o, sq(11, 11)), 1);
    // 5 east, 2 south: two diagonals (1 + 2) and three straight steps.
    assert_eq!(Metric::Alternating.distance(o, sq(15, 12)), 6);
    assert_eq!(Metric::Manhattan.distance(o, sq(15, 12)), 7);
    assert_eq!(Metric::Chebyshev.distance(o, o), 0);
    for m in Metric::ALL {
        assert_eq!(Metric::parse(m.name()), Some(m));
        assert_eq!(
            m.distance(sq(1, 5), sq(4, 2)),
            m.distance(sq(4, 2), sq(1, 5))
        );
    }
    assert!(Metric::Chebyshev.within(o, sq(12, 8), 2));
    assert!(!Metric::Alternating.within(o, sq(12, 8), 2));
    assert!(o.adjacent(sq(11, 9)) && o.adjacent(sq(10, 11)));
    assert!(!o.adjacent(o) && !o.adjacent(sq(12, 10)));
}

#[test]
fn opposite_sides_and_flanking() {
    let t = sq(5, 5);
    // Adjacent pairs: exactly the four opposite pairs.
    for &(ax, ay) in &STEPS {
        for &(bx, by) in &STEPS {
            let a = sq((5 + ax) as u8, (5 + ay) as u8);
            let b = sq((5 + bx) as u8, (5 + by) as u8);
            assert_eq!(
                opposite_sides(t, a, b),
                (ax, ay) == (-bx, -by),
                "{a:?} {b:?}"
            );
            assert_eq!(opposite_sides(t, a, b), opposite_sides(t, b, a));
        }
    }
    // Farther away: behind the target as seen from its other enemy.
    assert!(opposite_sides(t, sq(2, 4), sq(6, 6)));
    assert!(opposite_sides(t, sq(5, 1), sq(5, 6)));
    assert!(!opposite_sides(t, sq(5, 1), sq(6, 6)));
    assert!(!opposite_sides(t, t, t));
    // Flanked: a pair of opposite neighbours.
    let two = |a: Square, b: Square| move |s: Square| s == a || s == b;
    assert!(flanked(t, two(sq(4, 5), sq(6, 5))));
    assert!(flanked(t, two(sq(4, 6), sq(6, 4))));
    assert!(!flanked(t, two(sq(4, 5), sq(6, 6))));
    assert!(!flanked(sq(0, 0), |_| true));
}

#[test]
fn thrums_shapes() {
    let count = |shape: Shape| {
        (0..20u8)
            .flat_map(|y| (0..20u8).map(move |x| sq(x, y)))
            .filter(|&s| shape.contains(s))
            .count()
    };
    // "an Aura 1 effect impacts a 3x3 square centered on the source, an Aura
    // 2 effect impacts a 5x5 square, etc., with a 'hole' in the center".
    let aura = Shape::Aura {
        centre: sq(5, 5),
        radius: 2,
    };
    assert_eq!(count(aura), 24);
    assert!(!aura.contains(sq(5, 5)) && aura.contains(sq(3, 7)) && !aura.contains(sq(2, 5)));
    // "Area 3 is a 3x3".
    let area = Shape::Area {
        corner: sq(4, 4),
        size: 3,
    };
    assert_eq!(count(area), 9);
    assert!(area.contains(sq(6, 6)) && !area.contains(sq(7, 6)) && !area.contains(sq(3, 4)));
    assert!(area.in_range(sq(8, 8), 2) && !area.in_range(sq(9, 4), 2));
    assert!(area.in_range(sq(5, 5), 0) && !area.in_range(sq(3, 5), 0));
    // "X consecutive squares sharing a row, column, or diagonal".
    let line = Shape::Line {
        start: sq(2, 2),
        dir: 5, // south-east
        len: 4,
    };
    assert_eq!(count(line), 4);
    assert!(line.contains(sq(2, 2)) && line.contains(sq(5, 5)) && !line.contains(sq(6, 6)));
    assert!(!line.contains(sq(3, 2)) && !line.contains(sq(1, 1)));
    let west = Shape::Line {
        start: sq(9, 1),
        dir: 3,
        len: 3,
    };
    assert_eq!(count(west), 3);
    assert!(west.contains(sq(7, 1)) && !west.contains(sq(6, 1)) && !west.contains(sq(10, 1)));
    assert!(west.in_range(sq(4, 1), 3) && !west.in_range(sq(3, 1), 3));
}

// ---------------------------------------------------------------- sight

/// Cells and corners of the line from `a` to `b`, as sets.
fn crossings(a: Square, b: Square) -> (Vec<Square>, Vec<(Square, Square)>) {
    let (mut cells, mut corners) = (Vec::new(), Vec::new());
    walk_line(a, b, |c| {
        match c {
            Crossing::Cell(s) => cells.push(s),
            Crossing::Corner(p, q) => corners.push((p.min(q), p.max(q))),
        }
        true
    });
    cells.sort();
    corners.sort();
    (cells, corners)
}

#[test]
fn the_line_passes_the_expected_squares() {
    // Straight and diagonal lines.
    assert_eq!(crossings(sq(0, 0), sq(3, 0)).0, vec![sq(1, 0), sq(2, 0)]);
    let (cells, corners) = crossings(sq(0, 0), sq(2, 2));
    assert_eq!(cells, vec![sq(1, 1)]);
    assert_eq!(corners.len(), 2);
    // A 2:1 slope through no corner: the supercover of the segment.
    let (cells, corners) = crossings(sq(0, 0), sq(2, 1));
    assert_eq!(cells, vec![sq(1, 0), sq(1, 1)]);
    assert!(corners.is_empty());
    // Adjacent squares: nothing between.
    assert_eq!(crossings(sq(3, 3), sq(4, 3)), (vec![], vec![]));
    assert_eq!(crossings(sq(3, 3), sq(3, 3)), (vec![], vec![]));
}

#[test]
fn sight_is_blocked_by_walls_not_by_open_ground() {
    let m = map("
.....
..#..
.....
.#...
#....");
    assert!(line_of_sight(&m, sq(0, 0), sq(4, 0)));
    assert!(!line_of_sight(&m, sq(0, 1), sq(4, 1)));
    assert!(!line_of_sight(&m, sq(2, 0), sq(2, 4)));
    assert!(!line_of_sight(&m, sq(1, 1), sq(3, 1)));
    // Two walls meeting at a corner: no gap on the diagonal between them.
    assert!(!line_of_sight(&m, sq(0, 3), sq(1, 4)));
    assert!(!line_of_sight(&m, sq(2, 2), sq(0, 4)));
    // Grazing a single wall's corner is a clear shot.
    assert!(line_of_sight(&m, sq(3, 1), sq(2, 2)));
    assert!(line_of_sight(&m, sq(4, 0), sq(2, 2)));
    // Cover, units and elevation do not block sight.
    let m = map("..=-3..");
    assert!(line_of_sight(&m, sq(0, 0), sq(6, 0)));
}

#[test]
fn sight_is_symmetric_on_every_pair_of_random_maps() {
    let mut rng = Mix(29);
    for round in 0..12 {
        let (w, h) = (3 + rng.below(14) as usize, 3 + rng.below(14) as usize);
        let m = random_map(&mut rng, w, h);
        let table = SightTable::new(&m);
        let squares: Vec<Square> = m.squares().collect();
        for &a in &squares {
            for &b in &squares {
                let ab = line_of_sight(&m, a, b);
                assert_eq!(ab, line_of_sight(&m, b, a), "map {round}: {a:?} {b:?}");
                assert_eq!(crossings(a, b), crossings(b, a), "map {round}: {a:?} {b:?}");
                if !m.at(a).blocks_sight() && !m.at(b).blocks_sight() {
                    assert_eq!(table.sees(a, b), ab, "map {round}: {a:?} {b:?}");
                }
            }
        }
    }
}

/// [`cover_between`] as its doc reads, without its shortcut: every square
/// and corner of the whole line from the attacker, those within `near` of
/// the target counted.
fn cover_walking_the_whole_line(m: &Map, attacker: Square, target: Square, near: u32) -> Cover {
    let close = |s: Square| Metric::Chebyshev.distance(s, target) <= near;
    let mut best = Cover::None;
    walk_line(attacker, target, |c| {
        match c {
            Crossing::Cell(s) if close(s) => best = best.max(m.at(s).cover()),
            Crossing::Corner(p, q) if close(p) && close(q) => {
                best = best.max(m.at(p).cover().min(m.at(q).cover()))
            }
            _ => {}
        }
        true
    });
    if Metric::Chebyshev.distance(attacker, target) > 1 {
        best = best.max(m.at(target).dug);
    }
    best
}

#[test]
fn the_cover_table_is_cover_between_for_every_pair() {
    let mut rng = Mix(29);
    for round in 0..8 {
        let (w, h) = (3 + rng.below(12) as usize, 3 + rng.below(12) as usize);
        let mut m = random_map(&mut rng, w, h);
        // Dug cover too (a trench's, a firing position's): the target's own.
        for s in m.squares().collect::<Vec<_>>() {
            if rng.below(8) == 0 {
                let t = Terrain {
                    dug: [Cover::Half, Cover::ThreeQuarters][rng.below(2) as usize],
                    ..m.at(s)
                };
                m.set(s, t);
            }
        }
        let table = CoverTable::new(&m);
        let squares: Vec<Square> = m.squares().collect();
        let mut covered = 0;
        for &a in &squares {
            for &b in &squares {
                for near in [1, 2, u32::MAX] {
                    let c = cover_walking_the_whole_line(&m, a, b, near);
                    assert_eq!(
                        cover_between(&m, a, b, near),
                        c,
                        "map {round}: {a:?} {b:?} {near}"
                    );
                }
                let c = cover_between(&m, a, b, 1);
                assert_eq!(table.cover(a, b), c, "map {round}: {a:?} {b:?}");
                covered += usize::from(c != Cover::None);
            }
        }
        assert!(covered > 0, "map {round} has cover somewhere");
    }
}

#[test]
fn cover_between_counts_terrain_next_to_the_target() {
    let m = map("
.........
...-.-...
....u....");
    // A low wall next to the target covers it; one next to the attacker
    // (fired over) does not, unless every square between counts.
    assert_eq!(cover_between(&m, sq(3, 0), sq(3, 2), 1), Cover::Half);
    assert_eq!(cover_between(&m, sq(5, 2), sq(5, 0), 1), Cover::Half);
    assert_eq!(cover_between(&m, sq(3, 2), sq(3, 0), 1), Cover::Half);
    assert_eq!(cover_between(&m, sq(0, 1), sq(8, 1), 1), Cover::None);
    assert_eq!(cover_between(&m, sq(0, 1), sq(8, 1), u32::MAX), Cover::Half);
    // Dug in: covered against a distant attacker, not against one next to it.
    assert_eq!(cover_between(&m, sq(4, 0), sq(4, 2), 1), Cover::Half);
    assert_eq!(cover_between(&m, sq(4, 1), sq(4, 2), 1), Cover::None);
    let m = map("..=.\n....");
    assert_eq!(
        cover_between(&m, sq(0, 0), sq(3, 0), 1),
        Cover::ThreeQuarters
    );
    assert_eq!(cover_between(&m, sq(0, 1), sq(3, 1), 1), Cover::None);
}

#[test]
fn thrum_cover_follows_the_texts_examples() {
    // "if the target is directly to the right of the higher ground, then they
    // would have cover from attacks originating anywhere to the left of the
    // vertical line squares containing the higher terrain".
    let m = map("
.......
...2...
.......
.......");
    let none = |_: Square| false;
    let t = sq(4, 1);
    for a in [sq(0, 0), sq(0, 1), sq(2, 3), sq(1, 2)] {
        assert_eq!(thrum_cover(&m, a, t, none), ThrumCover::Cover, "{a:?}");
    }
    for a in [sq(3, 3), sq(3, 0), sq(6, 1), sq(5, 3), sq(4, 3)] {
        assert_eq!(thrum_cover(&m, a, t, none), ThrumCover::None, "{a:?}");
    }
    // "If the target is directly adjacent down and to the right, the dividing
    // diagonal would run through higher terrain from the lower left to the
    // upper right, and the character would have cover from attacks
    // originating to the 'northwest' of that diagonal."
    let t = sq(4, 2);
    for a in [sq(0, 0), sq(2, 1), sq(3, 0), sq(0, 3)] {
        assert_eq!(thrum_cover(&m, a, t, none), ThrumCover::Cover, "{a:?}");
    }
    // On the diagonal itself (4, 0), (2, 2), (1, 3) or beyond it: none.
    for a in [sq(4, 0), sq(2, 2), sq(1, 3), sq(6, 3), sq(5, 0)] {
        assert_eq!(thrum_cover(&m, a, t, none), ThrumCover::None, "{a:?}");
    }
    // Only terrain 2 or more levels above the target counts, and only against
    // an attacker below the source.
    let m = map("...1...\n.......");
    assert_eq!(thrum_cover(&m, sq(0, 0), sq(4, 0), none), ThrumCover::None);
    let m = map("3..2...\n.......");
    assert_eq!(thrum_cover(&m, sq(0, 0), sq(4, 0), none), ThrumCover::None);
    assert_eq!(thrum_cover(&m, sq(1, 1), sq(4, 0), none), ThrumCover::Cover);
    let m = map("..21...\n.......");
    assert_eq!(thrum_cover(&m, sq(0, 0), sq(3, 0), none), ThrumCover::None);
    assert_eq!(thrum_cover(&m, sq(0, 1), sq(3, 1), none), ThrumCover::Cover);
    // A character is a source of cover (any side); the attacker is not.
    let m = map(".......\n.......\n.......");
    let unit = |s: Square| s == sq(3, 1);
    assert_eq!(thrum_cover(&m, sq(0, 1), sq(4, 1), unit), ThrumCover::Cover);
    assert_eq!(thrum_cover(&m, sq(6, 1), sq(4, 1), unit), ThrumCover::None);
    assert_eq!(thrum_cover(&m, sq(3, 1), sq(4, 1), unit), ThrumCover::None);
    // Obstructed: the two squares beside the source along the dividing line
    // also qualify (terrain or characters).
    let m = map("
...2...
...#...
.......");
    let unit = |s: Square| s == sq(3, 2);
    assert_eq!(
        thrum_cover(&m, sq(0, 1), sq(4, 1), unit),
        ThrumCover::Obstructed
    );
    assert_eq!(thrum_cover(&m, sq(0, 1), sq(4, 1), none), ThrumCover::Cover);
    // Low cover is one level: no thrum cover on flat ground; high cover is two.
    let m = map("..-..");
    assert_eq!(thrum_cover(&m, sq(0, 0), sq(3, 0), none), ThrumCover::None);
    let m = map("..=..");
    assert_eq!(thrum_cover(&m, sq(0, 0), sq(3, 0), none), ThrumCover::Cover);
}

// ---------------------------------------------------------------- paths

/// The cost of one step by the definitions, written apart from [`Graph`].
fn step_cost(
    m: &Map,
    c: Costs,
    s: Square,
    dx: i8,
    dy: i8,
    parity: u8,
) -> Option<(Square, u32, u8)> {
    let t = m.neighbour(s, dx, dy)?;
    let (ts, tt) = (m.at(s), m.at(t));
    if !ts.passable() || !tt.passable() {
        return None;
    }
    let diagonal = dx != 0 && dy != 0;
    if diagonal {
        if c.metric == Metric::Manhattan {
            return None;
        }
        let a = !m.at(m.neighbour(s, dx, 0).unwrap()).passable();
        let b = !m.at(m.neighbour(s, 0, dy).unwrap()).passable();
        let refused = match c.corners {
            Corners::BothBlock => a && b,
            Corners::EitherBlocks => a || b,
            Corners::Free => false,
        };
        if refused {
            return None;
        }
    }
    let alternating = c.metric == Metric::Alternating;
    let mut cost = if diagonal && alternating && parity == 1 {
        2
    } else {
        1
    };
    if c.difficult == Difficult::Double && tt.difficult {
        cost *= 2;
    }
    if c.difficult == Difficult::ExitPlusOne && ts.difficult {
        cost += 1;
    }
    if c.climb {
        cost += (tt.elevation as i32 - ts.elevation as i32)
            .unsigned_abs()
            .saturating_sub(1);
    }
    let next = if diagonal && alternating {
        parity ^ 1
    } else {
        parity
    };
    Some((t, cost, next))
}

/// Cost to the nearest goal from each (square, parity), by relaxing every
/// step until nothing changes (Bellman-Ford).
fn brute_field(m: &Map, c: Costs, goals: &[Square], blocked: &SquareSet) -> Vec<[u32; 2]> {
    let mut d = vec![[UNREACHABLE; 2]; m.len()];
    for &g in goals {
        d[m.index(g)] = [0, 0];
    }
    loop {
        let mut changed = false;
        for s in m.squares() {
            if blocked.contains(s) {
                continue;
            }
            for p in 0..2u8 {
                for &(dx, dy) in &STEPS {
                    if let Some((t, cost, q)) = step_cost(m, c, s, dx, dy, p) {
                        let rest = d[m.index(t)][q as usize];
                        if rest != UNREACHABLE && rest + cost < d[m.index(s)][p as usize] {
                            d[m.index(s)][p as usize] = rest + cost;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            return d;
        }
    }
}

/// Cost from `from` at `parity` to each (square, parity), brute force.
fn brute_from(m: &Map, c: Costs, from: Square, parity: u8, blocked: &SquareSet) -> Vec<[u32; 2]> {
    let mut d = vec![[UNREACHABLE; 2]; m.len()];
    d[m.index(from)][parity as usize] = 0;
    loop {
        let mut changed = false;
        for s in m.squares() {
            for p in 0..2u8 {
                let here = d[m.index(s)][p as usize];
                if here == UNREACHABLE {
                    continue;
                }
                for &(dx, dy) in &STEPS {
                    if let Some((t, cost, q)) = step_cost(m, c, s, dx, dy, p) {
                        if !blocked.contains(t) && here + cost < d[m.index(t)][q as usize] {
                            d[m.index(t)][q as usize] = here + cost;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            return d;
        }
    }
}

const MODELS: [Costs; 6] = [
    Costs::thrum(),
    Costs::escalation(),
    Costs::dicestep(),
    Costs {
        corners: Corners::EitherBlocks,
        ..Costs::new(Metric::Manhattan)
    },
    Costs {
        corners: Corners::Free,
        difficult: Difficult::Ignore,
        climb: true,
        ..Costs::new(Metric::Alternating)
    },
    Costs {
        corners: Corners::EitherBlocks,
        difficult: Difficult::ExitPlusOne,
        ..Costs::new(Metric::Alternating)
    },
];

#[test]
fn fields_match_brute_force_on_random_maps() {
    let mut rng = Mix(1914);
    for round in 0..24 {
        let (w, h) = (2 + rng.below(11) as usize, 2 + rng.below(11) as usize);
        let m = random_map(&mut rng, w, h);
        let squares: Vec<Square> = m.squares().collect();
        let goals: Vec<Square> = (0..1 + rng.below(3))
            .map(|_| squares[rng.below(squares.len() as u64) as usize])
            .collect();
        let blocked: SquareSet = (0..rng.below(4))
            .map(|_| squares[rng.below(squares.len() as u64) as usize])
            .filter(|s| !goals.contains(s))
            .collect();
        let mut ws = Workspace::new(&m);
        for costs in MODELS {
            let g = Graph::new(&m, costs);
            let mut f = g.new_field();
            g.field(&mut ws, &goals, &blocked, &mut f);
            let want = brute_field(&m, costs, &goals, &blocked);
            for &s in &squares {
                for p in 0..costs.layers() as u8 {
                    assert_eq!(
                        f.get(s, p),
                        want[m.index(s)][p as usize],
                        "map {round}, {costs:?}, {s:?} parity {p}"
                    );
                }
                // Walking the field from any square arrives at a goal having
                // spent exactly the field's value.
                let (mut at, mut p, mut spent) = (s, 0u8, 0);
                if f.at(s) == UNREACHABLE || blocked.contains(s) {
                    continue;
                }
                while let Some((t, q)) = g.next_step(&f, at, p, &blocked) {
                    let dir = STEPS
                        .iter()
                        .position(|&(dx, dy)| m.neighbour(at, dx, dy) == Some(t))
                        .unwrap();
                    spent += g.step(at, p, dir).unwrap().1;
                    assert!(!blocked.contains(t));
                    (at, p) = (t, q);
                }
                assert!(
                    goals.contains(&at),
                    "map {round}, {costs:?}: from {s:?} stuck at {at:?}"
                );
                assert_eq!(spent, f.at(s), "map {round}, {costs:?}, from {s:?}");
            }
        }
    }
}

#[test]
fn reach_is_the_best_square_within_the_budget() {
    let mut rng = Mix(7);
    for round in 0..24 {
        let (w, h) = (3 + rng.below(10) as usize, 3 + rng.below(10) as usize);
        let m = random_map(&mut rng, w, h);
        let squares: Vec<Square> = m.squares().filter(|&s| m.at(s).passable()).collect();
        if squares.len() < 3 {
            continue;
        }
        let pick = |rng: &mut Mix| squares[rng.below(squares.len() as u64) as usize];
        let goal = pick(&mut rng);
        let from = pick(&mut rng);
        let blocked: SquareSet = (0..rng.below(4))
            .map(|_| pick(&mut rng))
            .filter(|&s| s != from && s != goal)
            .collect();
        let allies: SquareSet = (0..rng.below(5))
            .map(|_| pick(&mut rng))
            .filter(|&s| s != from)
            .collect();
        let mut ws = Workspace::new(&m);
        for costs in MODELS {
            let g = Graph::new(&m, costs);
            let mut f = g.new_field();
            g.field(&mut ws, &[goal], &blocked, &mut f);
            let budget = rng.below(9) as u32;
            let r = g.reach(&mut ws, &f, (from, 0), budget, &blocked, &allies);
            let d = brute_from(&m, costs, from, 0, &blocked);
            let mut want = (f.at(from), 0, from.y, from.x);
            for &s in &squares {
                for spent in d[m.index(s)] {
                    if spent <= budget && !allies.contains(s) {
                        want = want.min((f.at(s), spent, s.y, s.x));
                    }
                }
            }
            assert_eq!(
                (r.remaining, r.spent, r.to.y, r.to.x),
                want,
                "map {round}, {costs:?}, from {from:?} budget {budget}"
            );
            // The path: adjacent steps from `from`, costing what was spent,
            // never through a blocked square.
            let mut path: Vec<Square> = ws.path().collect();
            path.reverse();
            let (mut at, mut p, mut spent) = (from, 0u8, 0);
            for &t in &path {
                assert!(!blocked.contains(t));
                let dir = STEPS
                    .iter()
                    .position(|&(dx, dy)| m.neighbour(at, dx, dy) == Some(t))
                    .unwrap();
                let (_, c, q) = g.step(at, p, dir).unwrap();
                (at, p, spent) = (t, q, spent + c);
            }
            assert_eq!((at, spent), (r.to, r.spent), "map {round}, {costs:?}");
        }
    }
}

/// The bounded searches against the search of every state in the budget
/// ([`Graph::reach_exhaustive`]): [`Graph::reach`] and
/// [`Graph::reach_nearest`] (bounded by the best value found plus the
/// budget), [`Graph::reach_within`] and [`Graph::reach_nearest_within`]
/// (by a limit, whenever the answer's movement plus value is within it). On
/// random maps under every cost model, with blocked squares, allies and a
/// start at either parity: the same square, cost, value and path, square by
/// square.
#[test]
fn bounded_searches_match_the_exhaustive_one() {
    let mut rng = Mix(31);
    let (mut compared, mut within) = (0, 0);
    for round in 0..300 {
        let (w, h) = (3 + rng.below(12) as usize, 3 + rng.below(12) as usize);
        let m = random_map(&mut rng, w, h);
        let squares: Vec<Square> = m.squares().filter(|&s| m.at(s).passable()).collect();
        if squares.len() < 3 {
            continue;
        }
        let pick = |rng: &mut Mix| squares[rng.below(squares.len() as u64) as usize];
        let goals: Vec<Square> = (0..1 + rng.below(3)).map(|_| pick(&mut rng)).collect();
        let from = pick(&mut rng);
        let blocked: SquareSet = (0..rng.below(6))
            .map(|_| pick(&mut rng))
            .filter(|&s| s != from && !goals.contains(&s))
            .collect();
        let allies: SquareSet = (0..rng.below(5))
            .map(|_| pick(&mut rng))
            .filter(|&s| s != from && !blocked.contains(s))
            .collect();
        let budget = rng.below(12) as u32;
        let parity = rng.below(2) as u8;
        let mut ws = Workspace::new(&m);
        for costs in MODELS {
            let g = Graph::new(&m, costs);
            let cache = FieldCache::new(&m, costs, goals.iter().copied());
            let near: Vec<&Field> = goals.iter().map(|&s| cache.get(s).unwrap()).collect();
            let mut blocked_field = g.new_field();
            g.field(&mut ws, &goals, &blocked, &mut blocked_field);
            let mut terrain = g.new_field();
            g.field(&mut ws, &goals, &SquareSet::new(), &mut terrain);
            for (field, nearest) in [(&blocked_field, false), (&terrain, true)] {
                let start = (from, parity);
                let all = g.reach_exhaustive(&mut ws, field, start, budget, &blocked, &allies);
                let all_path: Vec<Square> = ws.path().collect();
                let total = all.spent.saturating_add(all.remaining);
                let limits = [
                    u32::MAX,
                    total,
                    total.saturating_sub(1),
                    rng.below(16) as u32,
                ];
                for limit in limits {
                    let r = if nearest {
                        g.reach_nearest_within(
                            &mut ws, &near, start, budget, limit, &blocked, &allies,
                        )
                    } else {
                        g.reach_within(&mut ws, field, start, budget, limit, &blocked, &allies)
                    };
                    compared += 1;
                    if total > limit {
                        continue;
                    }
                    within += (limit != u32::MAX) as u32;
                    let what = format!(
                        "map {round}, {costs:?}, from {from:?} at parity {parity}, goals \
                         {goals:?}, budget {budget}, limit {limit}, nearest {nearest}"
                    );
                    assert_eq!(r, all, "{what}");
                    assert_eq!(ws.path().collect::<Vec<_>>(), all_path, "{what}");
                }
                let r = if nearest {
                    g.reach_nearest(&mut ws, &near, start, budget, &blocked, &allies)
                } else {
                    g.reach(&mut ws, field, start, budget, &blocked, &allies)
                };
                assert_eq!(r, all, "map {round}, {costs:?}: reach");
                assert_eq!(ws.path().collect::<Vec<_>>(), all_path, "map {round}");
            }
        }
    }
    assert!(
        within * 4 > compared,
        "{within} of {compared} within a limit"
    );
}

#[test]
fn costs_follow_the_texts() {
    // dicestep: a diagonal run of three costs 1 + 2 + 1.
    let m = Map::open(8, 8);
    let g = Graph::new(&m, Costs::dicestep());
    let mut ws = Workspace::new(&m);
    let mut f = g.new_field();
    g.field(&mut ws, &[sq(3, 3)], &SquareSet::new(), &mut f);
    assert_eq!(f.at(sq(0, 0)), 4);
    assert_eq!(
        f.at(sq(7, 5)),
        Metric::Alternating.distance(sq(7, 5), sq(3, 3))
    );
    for s in m.squares() {
        assert_eq!(f.at(s), Metric::Alternating.distance(s, sq(3, 3)));
    }
    // thrum: exiting difficult terrain costs +1; climbing 3 levels costs +2.
    let m = map("~~..\n.3..\n....");
    let g = Graph::new(&m, Costs::thrum());
    let mut ws = Workspace::new(&m);
    let mut f = g.new_field();
    g.field(&mut ws, &[sq(3, 0)], &SquareSet::new(), &mut f);
    assert_eq!(f.at(sq(2, 0)), 1);
    assert_eq!(f.at(sq(1, 0)), 3); // out of ~ (+1), then one more square
    assert_eq!(f.at(sq(0, 0)), 5); // out of ~ twice (+2), around the hill
    g.field(&mut ws, &[sq(1, 1)], &SquareSet::new(), &mut f);
    assert_eq!(f.at(sq(1, 2)), 3); // up 3 levels: 1 + 2
                                   // trenches: difficult terrain halves speed (a step into it costs 2).
    let g = Graph::new(&m, Costs::trenches());
    g.field(&mut ws, &[sq(0, 0)], &SquareSet::new(), &mut f);
    assert_eq!(f.at(sq(2, 0)), 3);
    assert_eq!(f.at(sq(0, 1)), 2);
    // Walls: around them; a diagonal between two walls meeting at a corner
    // is refused, past one wall's corner it is allowed.
    let m = map(".#.\n#..\n...");
    let g = Graph::new(&m, Costs::escalation());
    let mut ws = Workspace::new(&m);
    let mut f = g.new_field();
    g.field(&mut ws, &[sq(0, 0)], &SquareSet::new(), &mut f);
    assert_eq!(f.at(sq(1, 1)), UNREACHABLE);
    let m = map(".#.\n...\n...");
    let g = Graph::new(&m, Costs::escalation());
    g.field(&mut ws, &[sq(0, 0)], &SquareSet::new(), &mut f);
    assert_eq!(f.at(sq(1, 1)), 1);
    assert_eq!(f.at(sq(2, 0)), 2);
    // Enemies are impassable: a corridor held by one is closed.
    let m = map("#####\n.....\n#####");
    let g = Graph::new(&m, Costs::thrum());
    let mut ws = Workspace::new(&m);
    let mut f = g.new_field();
    let enemy: SquareSet = [sq(2, 1)].into_iter().collect();
    g.field(&mut ws, &[sq(4, 1)], &enemy, &mut f);
    assert_eq!(f.at(sq(0, 1)), UNREACHABLE);
    assert_eq!(f.at(sq(3, 1)), 1);
    assert_eq!(f.at(sq(2, 1)), UNREACHABLE);
    // A goal on the enemy's own square measures the way up to it.
    g.field(&mut ws, &[sq(2, 1)], &enemy, &mut f);
    assert_eq!((f.at(sq(0, 1)), f.at(sq(2, 1)), f.at(sq(4, 1))), (2, 0, 2));
    // Allies are passable but no place to stop: the mover stops short, or
    // passes through.
    let ally: SquareSet = [sq(2, 1)].into_iter().collect();
    g.field(&mut ws, &[sq(4, 1)], &SquareSet::new(), &mut f);
    let r = g.reach(&mut ws, &f, (sq(0, 1), 0), 2, &SquareSet::new(), &ally);
    assert_eq!((r.to, r.spent, r.remaining), (sq(1, 1), 1, 3));
    let r = g.reach(&mut ws, &f, (sq(0, 1), 0), 3, &SquareSet::new(), &ally);
    assert_eq!((r.to, r.spent, r.remaining), (sq(3, 1), 3, 1));
    let mut path: Vec<Square> = ws.path().collect();
    path.reverse();
    assert_eq!(path, vec![sq(1, 1), sq(2, 1), sq(3, 1)]);
}

#[test]
fn the_next_step_prefers_straight_then_clockwise_from_north() {
    let m = Map::open(5, 5);
    let g = Graph::new(&m, Costs::escalation());
    let mut ws = Workspace::new(&m);
    let mut f = g.new_field();
    g.field(&mut ws, &[sq(4, 0)], &SquareSet::new(), &mut f);
    // From (0, 2): east (1, 2) and north-east (1, 1) are both on shortest
    // paths; the straight step comes first, the diagonal when it is blocked.
    assert_eq!(
        g.next_step(&f, sq(0, 2), 0, &SquareSet::new()),
        Some((sq(1, 2), 0))
    );
    let east: SquareSet = [sq(1, 2)].into_iter().collect();
    assert_eq!(g.next_step(&f, sq(0, 2), 0, &east), Some((sq(1, 1), 0)));
    assert_eq!(g.next_step(&f, sq(4, 0), 0, &SquareSet::new()), None);
    // From (0, 4) to (2, 0): north (0, 3) and north-east (1, 3); north first.
    g.field(&mut ws, &[sq(2, 0)], &SquareSet::new(), &mut f);
    assert_eq!(
        g.next_step(&f, sq(0, 4), 0, &SquareSet::new()),
        Some((sq(0, 3), 0))
    );
}

#[test]
fn searches_allocate_nothing_after_the_first() {
    let mut rng = Mix(3);
    let m = random_map(&mut rng, 40, 30);
    let g = Graph::new(&m, Costs::dicestep());
    let mut ws = Workspace::new(&m);
    let mut f = g.new_field();
    let ws_bytes = ws.capacity();
    let open: Vec<Square> = m.squares().filter(|&s| m.at(s).passable()).collect();
    let mut blocked = SquareSet::new();
    for i in 0..50 {
        let goal = open[(i * 37) % open.len()];
        blocked.clear();
        blocked.insert(open[(i * 11) % open.len()]);
        g.field(&mut ws, &[goal], &blocked, &mut f);
        let from = open[(i * 53) % open.len()];
        g.reach(&mut ws, &f, (from, 0), 12, &blocked, &SquareSet::new());
        assert_eq!(ws.capacity(), ws_bytes);
    }
}

#[test]
fn the_cache_holds_terrain_fields() {
    let m = map("
......
.####.
......");
    let cache = FieldCache::all(&m, Costs::thrum());
    assert_eq!(cache.distance(sq(0, 1), sq(5, 1)), Some(5));
    assert_eq!(cache.distance(sq(2, 0), sq(2, 2)), Some(4));
    assert_eq!(cache.distance(sq(0, 0), sq(2, 1)), None);
    let some = FieldCache::new(&m, Costs::dicestep(), [sq(0, 0), sq(0, 0)]);
    assert_eq!(some.distance(sq(3, 2), sq(0, 0)), Some(4));
    assert!(some.get(sq(1, 0)).is_none());
}

/// The moves read from the cache ([`crate::engine::ground::near_reach`])
/// against the search on the full field (what `Turn::approach` did before):
/// on random maps, with random enemies (never entered) and allies (passed,
/// not stopped on) and the goals `approach` builds (the free squares within
/// a ring around the target, in its sight beyond one square), wherever the
/// cache answers it names the same square, at the same cost, by the same
/// path, square by square (a walked move's path searched afterwards, as
/// `last_path` does). And the field a retreat walks (from the enemies,
/// nothing blocked) is the least of their cached fields, everywhere.
#[test]
fn moves_from_the_cache_match_the_full_search() {
    use crate::engine::ground::{near_fields, near_reach, write_walked_path, Ground};
    let mut rng = Mix(29);
    let (mut answered, mut compared, mut walked) = (0, 0, 0);
    for round in 0..400 {
        let (w, h) = (3 + rng.below(12) as usize, 3 + rng.below(12) as usize);
        let m = random_map(&mut rng, w, h);
        let squares: Vec<Square> = m.squares().filter(|&s| m.at(s).passable()).collect();
        if squares.len() < 3 {
            continue;
        }
        let pick = |rng: &mut Mix| squares[rng.below(squares.len() as u64) as usize];
        let at = pick(&mut rng);
        let from = pick(&mut rng);
        if from == at {
            continue;
        }
        let mut enemies: Vec<Square> = (0..rng.below(5))
            .map(|_| pick(&mut rng))
            .filter(|&s| s != from)
            .collect();
        enemies.push(at);
        let blocked: SquareSet = enemies.iter().copied().collect();
        let allies: SquareSet = (0..rng.below(5))
            .map(|_| pick(&mut rng))
            .filter(|&s| s != from && !blocked.contains(s))
            .collect();
        let ring = 1 + rng.below(3) as i32;
        let budget = rng.below(10) as u32;
        for (k, costs) in [
            Costs::thrum(),
            Costs::escalation(),
            Costs::dicestep(),
            Costs::trenches(),
        ]
        .into_iter()
        .enumerate()
        {
            let g = Ground::intern(format!("near test {round} {k}"), m.clone(), 1, costs);
            let goals: Vec<Square> = squares
                .iter()
                .copied()
                .filter(|&s| {
                    s != at
                        && !blocked.contains(s)
                        && !allies.contains(s)
                        && g.distance(s, at) <= ring
                        && (ring <= 1 || g.sees(s, at))
                })
                .collect();
            if goals.contains(&from) {
                continue;
            }
            let mut ws = Workspace::new(&m);
            let mut field = g.graph.new_field();
            g.graph.field(&mut ws, &goals, &blocked, &mut field);
            let full = g
                .graph
                .reach(&mut ws, &field, (from, 0), budget, &blocked, &allies);
            let full_path: Vec<Square> = ws.path().collect();
            let mut near = Vec::new();
            compared += 1;
            let what = format!(
                "map {round}, {costs:?}, from {from:?} to {at:?}, ring {ring}, budget {budget}"
            );
            if let Some((r, goal_field)) = near_reach(
                g,
                &mut near,
                &goals,
                &mut ws,
                (from, budget),
                &blocked,
                &allies,
            ) {
                answered += 1;
                let got = (r.to, r.spent, r.remaining);
                assert_eq!(got, (full.to, full.spent, full.remaining), "{what}");
                if r.to != from {
                    // A walked move's path is searched when asked for.
                    let path: Vec<Square> = match goal_field {
                        Some(f) => {
                            walked += 1;
                            let mut p = Vec::new();
                            write_walked_path(
                                g,
                                &mut ws,
                                f,
                                (from, r.spent),
                                &blocked,
                                &allies,
                                &mut p,
                            );
                            assert_eq!(p[0], from, "{what}");
                            p[1..].iter().rev().copied().collect()
                        }
                        None => ws.path().collect(),
                    };
                    assert_eq!(path, full_path, "{what}");
                }
            }
            // The retreat's field.
            assert!(near_fields(g, &mut near, &enemies), "{what}");
            g.graph
                .field(&mut ws, &enemies, &SquareSet::new(), &mut field);
            for s in m.squares() {
                for p in 0..2 {
                    let least = near.iter().fold(UNREACHABLE, |v, f| v.min(f.get(s, p)));
                    assert_eq!(least, field.get(s, p), "{what}: retreat field at {s:?}");
                }
            }
        }
    }
    // The cache answers most moves, many without a search (the test
    // exercises both).
    assert!(
        answered * 2 > compared && walked * 10 > compared,
        "the cache answered {answered} of {compared} moves, {walked} walked"
    );
}

/// The move cache behind `Turn::approach` on a map
/// ([`crate::engine::ground::MoveCache`]) answers a move only under its
/// own key, compared whole: another start, target, budget, stopping
/// distance, unit square or ally flag is another move; a move among more
/// units than a key holds is not kept; clearing forgets everything.
#[test]
fn the_move_cache_answers_only_its_own_key() {
    use crate::engine::ground::{CachedMove, MoveCache, MoveKey, MOVE_CACHE_UNITS};
    let mut cache = MoveCache::new();
    let units = [(sq(1, 1), false), (sq(2, 2), true)];
    let key = |from, budget, stop_at, units: &[(Square, bool)]| {
        MoveKey::new((from, sq(3, 3)), budget, stop_at, units.iter().copied()).unwrap()
    };
    let k = key(sq(0, 0), 4, 1, &units);
    assert!(cache.get(&k).is_none());
    let path = [sq(1, 2), sq(2, 3)];
    cache.put(k, CachedMove::new(sq(2, 3), 3, Some(&path), None).unwrap());
    let (_, m) = cache.get(&k).expect("kept");
    assert_eq!(
        (m.to, m.spent, &m.path[..m.len as usize]),
        (sq(2, 3), 3, &path[..])
    );
    let ally_there = [(sq(1, 1), true), (sq(2, 2), true)];
    let moved = [(sq(1, 0), false), (sq(2, 2), true)];
    for other in [
        key(sq(0, 1), 4, 1, &units),
        key(sq(0, 0), 5, 1, &units),
        key(sq(0, 0), 4, 2, &units),
        key(sq(0, 0), 4, 1, &units[..1]),
        key(sq(0, 0), 4, 1, &ally_there),
        key(sq(0, 0), 4, 1, &moved),
        MoveKey::new((sq(0, 0), sq(3, 2)), 4, 1, units.iter().copied()).unwrap(),
    ] {
        assert_ne!(other, k);
        assert!(cache.get(&other).is_none(), "{other:?}");
    }
    let crowd = (0..=MOVE_CACHE_UNITS as u8).map(|x| (sq(x, 5), false));
    assert!(MoveKey::new((sq(0, 0), sq(3, 3)), 4, 1, crowd).is_none());
    cache.clear();
    assert!(cache.get(&k).is_none());
}
