//! What one cell of a map is made of ([`Terrain`]) and the legend that
//! turns a map's characters into terrain: the default legend
//! ([`default_terrain`]) and the designer's `[map.legend]` names
//! ([`Terrain::parse_name`]).
//!
//! The default legend (one character a cell):
//!
//! | char | terrain | moves | sight | gives cover | thrum height |
//! |---|---|---|---|---|---|
//! | `.` | open ground | yes | yes | none | 0 |
//! | `#` | wall | no | blocks | full | above everything |
//! | `-` | low cover (a low wall, sandbags, a hedge) | yes, normal cost | yes | half | 1 |
//! | `=` | high cover (a chest-high parapet, a pillbox wall, a column) | no | yes | three-quarters | 2 |
//! | `~` | difficult terrain (mud, rubble, wire) | yes, dearer | yes | none | 0 |
//! | `_` `u` | trench or foxhole | yes | yes | half to whoever stands in it | 0 |
//! | `0`-`9` | open ground at that elevation level | yes | yes | none | the level |
//! | `A`-`Z` | a start cell of that group, open ground | yes | yes | none | 0 |
//!
//! Why these choices (the texts are silent on a map legend):
//! - Low cover blocks neither movement nor sight: it is something a soldier
//!   crouches behind and fires over ("half cover … with most types of
//!   fortifications, even those that have been improvised if one were to
//!   crouch", trenches "Cover"). Stepping over it costs nothing extra; a
//!   designer who wants it to slow units writes `low-cover+difficult` in
//!   the legend.
//! - High cover blocks movement but not sight: three-quarters cover is
//!   "firing positions … pill-boxes with firing slits" (trenches "Cover"), a
//!   thing one shoots past, not through; a wall blocks both.
//! - For thrum, whose cover comes from "terrain which is +2 or more levels of
//!   elevation higher" (thrum "Cover"), an obstacle has a height in levels:
//!   low cover 1 (not enough), high cover 2, a wall taller than anything.
//! - A trench is a place, not an obstacle between: its dug cover protects
//!   whoever stands in it ("Trenches most-often provide at least ½ cover to
//!   those within them", trenches "Trenches"; RULES.md reads the lost glyph
//!   as ½); a legend may name deeper works (`firing-position`: ¾, `deep-trench`:
//!   full).
//! - Elevation cells are open ground; elevation blocks no sight (a hill is
//!   not a wall; a designer marks a crest that hides what is behind it with
//!   `#`).

use crate::engine::Cover;

/// An obstacle standing in a cell, in increasing order of size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Obstacle {
    #[default]
    None,
    /// Half-height: passable, transparent, half cover behind it.
    Low,
    /// Impassable, transparent, three-quarters cover behind it.
    High,
    /// Impassable, opaque, full cover.
    Wall,
}

/// Height of a wall in elevation levels: above any level a map can have.
pub const WALL_HEIGHT: i16 = 1000;

/// Highest (and, negated, lowest) elevation level a legend may give.
pub const MAX_ELEVATION: i8 = 9;

/// One cell: an obstacle, whether it is difficult ground, the cover dug
/// into it, and its elevation level. Four bytes, `Copy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Terrain {
    pub obstacle: Obstacle,
    /// Difficult terrain (thrum: "exiting a space designated as Difficult
    /// Terrain costs +1"; trenches: "difficult terrain which will halve
    /// movement speed across it"; dicestep and escalation: the same halving
    /// by default). The cost rule is [`super::field::Difficult`].
    pub difficult: bool,
    /// Cover whoever stands in this cell has from being dug in (a trench or
    /// foxhole), against attackers that are not next to them.
    pub dug: Cover,
    /// Elevation level, `-9..=9` (thrum's "Elevation"); 0 is the baseline.
    pub elevation: i8,
}

impl Terrain {
    pub const OPEN: Terrain = Terrain {
        obstacle: Obstacle::None,
        difficult: false,
        dug: Cover::None,
        elevation: 0,
    };
    pub const WALL: Terrain = Terrain {
        obstacle: Obstacle::Wall,
        ..Terrain::OPEN
    };
    pub const LOW_COVER: Terrain = Terrain {
        obstacle: Obstacle::Low,
        ..Terrain::OPEN
    };
    pub const HIGH_COVER: Terrain = Terrain {
        obstacle: Obstacle::High,
        ..Terrain::OPEN
    };
    pub const DIFFICULT: Terrain = Terrain {
        difficult: true,
        ..Terrain::OPEN
    };
    pub const TRENCH: Terrain = Terrain {
        dug: Cover::Half,
        ..Terrain::OPEN
    };

    /// A unit may stand in and move through this cell.
    #[inline]
    pub fn passable(self) -> bool {
        self.obstacle <= Obstacle::Low
    }

    /// A line of sight through this cell is cut.
    #[inline]
    pub fn blocks_sight(self) -> bool {
        self.obstacle == Obstacle::Wall
    }

    /// The cover this cell gives a target behind it.
    #[inline]
    pub fn cover(self) -> Cover {
        match self.obstacle {
            Obstacle::None => Cover::None,
            Obstacle::Low => Cover::Half,
            Obstacle::High => Cover::ThreeQuarters,
            Obstacle::Wall => Cover::Full,
        }
    }

    /// The level of the top of this cell: its elevation plus its obstacle's
    /// height (thrum's "terrain which is +2 or more levels of elevation
    /// higher than their space").
    #[inline]
    pub fn top(self) -> i16 {
        self.elevation as i16
            + match self.obstacle {
                Obstacle::None => 0,
                Obstacle::Low => 1,
                Obstacle::High => 2,
                Obstacle::Wall => WALL_HEIGHT,
            }
    }

    /// The names a `[map.legend]` entry may combine with `+`, e.g.
    /// `"difficult+elevation:2"` or `"low-cover+difficult"`.
    pub const NAMES: &'static [&'static str] = &[
        "open",
        "wall",
        "low-cover",
        "high-cover",
        "difficult",
        "trench",
        "foxhole",
        "firing-position",
        "deep-trench",
        "elevation:N (N from -9 to 9)",
    ];

    /// A legend entry's terrain: names from [`Terrain::NAMES`] joined by `+`
    /// (later names override earlier ones on the same property). The error
    /// says which part is not a name, and the valid ones.
    pub fn parse_name(name: &str) -> Result<Terrain, String> {
        let mut t = Terrain::OPEN;
        for part in name.split('+').map(str::trim) {
            match part {
                "open" => {}
                "wall" => t.obstacle = Obstacle::Wall,
                "low-cover" => t.obstacle = Obstacle::Low,
                "high-cover" => t.obstacle = Obstacle::High,
                "difficult" => t.difficult = true,
                "trench" | "foxhole" => t.dug = Cover::Half,
                "firing-position" => t.dug = Cover::ThreeQuarters,
                "deep-trench" => t.dug = Cover::Full,
                _ => match part.strip_prefix("elevation:").map(str::parse::<i8>) {
                    Some(Ok(e)) if (-MAX_ELEVATION..=MAX_ELEVATION).contains(&e) => {
                        t.elevation = e
                    }
                    Some(_) => {
                        return Err(format!(
                            "{part:?}: an elevation is a whole number from -{MAX_ELEVATION} to {MAX_ELEVATION}"
                        ))
                    }
                    None => {
                        return Err(format!(
                            "{part:?} is not a terrain; valid: {}",
                            Terrain::NAMES.join(", ")
                        ))
                    }
                },
            }
        }
        Ok(t)
    }
}

/// The default legend's terrain for a character (start letters are open
/// ground), or `None` for a character it does not know.
pub fn default_terrain(c: char) -> Option<Terrain> {
    Some(match c {
        '.' | 'A'..='Z' => Terrain::OPEN,
        '#' => Terrain::WALL,
        '-' => Terrain::LOW_COVER,
        '=' => Terrain::HIGH_COVER,
        '~' => Terrain::DIFFICULT,
        '_' | 'u' => Terrain::TRENCH,
        '0'..='9' => Terrain {
            elevation: c as i8 - b'0' as i8,
            ..Terrain::OPEN
        },
        _ => return None,
    })
}

/// The default legend's characters, for error messages.
pub const DEFAULT_CHARS: &str = ". # - = ~ _ u 0-9 A-Z";
