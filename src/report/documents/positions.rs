//! A text picture of where units stand on a map, for `fights.md` (the
//! typical fight's start and end): a fenced block of the map's characters
//! with each unit drawn over its square, coordinate rulers, and a key below.
//!
//! - Ground: the default legend's character for each cell's terrain (`.`
//!   open, `#` wall, `-` low cover, `=` high cover, `~` difficult, `_`
//!   trench or any dug cover, `1`-`9` open ground at that elevation; a cell
//!   below level 0 shows as `.`), so a designer's own legend characters
//!   read back in the default legend, and start letters as open ground.
//!   A cell that mixes terrain shows what matters most to a unit: an
//!   obstacle, then dug cover, then difficult ground, then elevation.
//! - Units: each side has a letter (the initial of its name when no other
//!   side has it, else the next free letter); a standing unit is its side's
//!   capital letter, a fallen one the small letter. Where several units
//!   share a square the first standing one is drawn (else the first
//!   fallen), and the key names the others as under it. Map characters
//!   are never letters, so a letter is always a unit.
//! - Coordinates: x counts columns from 1 at the left, y rows from 1 at the
//!   top, as the map text reads (row 1 is its first line) and as
//!   [`crate::map::Square`] counts them from 0; the two lines above the
//!   picture give x (every tenth column and the units digit of each), the
//!   column at its left gives y.
//! - Size: a map up to [`WHOLE`] is shown whole; a larger one is cropped to
//!   the units' bounding box and [`CROP_MARGIN`] squares around it, and the
//!   line above the picture says which squares it shows.

use crate::map::{Map, Obstacle, Square, Terrain};

use crate::engine::Cover;

/// The largest map (columns, rows) shown whole.
pub const WHOLE: (usize, usize) = (40, 24);
/// Squares shown around the units on a cropped map.
pub const CROP_MARGIN: usize = 2;

/// One unit to draw.
#[derive(Clone, Copy, Debug)]
pub struct Placed<'a> {
    pub square: Square,
    /// Index into the side names.
    pub side: usize,
    /// Still in the fight (drawn in capitals) or fallen (small letters).
    pub standing: bool,
    /// The unit's name in the key.
    pub label: &'a str,
}

/// The character a cell of terrain `t` is drawn with.
pub fn ground_char(t: Terrain) -> char {
    match t.obstacle {
        Obstacle::Wall => '#',
        Obstacle::High => '=',
        Obstacle::Low => '-',
        Obstacle::None if t.dug != Cover::None => '_',
        Obstacle::None if t.difficult => '~',
        Obstacle::None if (1..=9).contains(&t.elevation) => (b'0' + t.elevation as u8) as char,
        Obstacle::None => '.',
    }
}

/// The ground characters in the key's order, with what they mean.
const GROUND: [(char, &str); 6] = [
    ('.', "open ground"),
    ('#', "wall"),
    ('-', "low cover"),
    ('=', "high cover"),
    ('~', "difficult ground"),
    ('_', "trench or foxhole"),
];

/// Each side's letter: its name's initial if no earlier side took it, else
/// the first letter no side has yet.
fn letters(sides: usize, names: &[&str]) -> Vec<char> {
    let mut taken: Vec<char> = Vec::new();
    for k in 0..sides {
        let initial = names
            .get(k)
            .and_then(|n| n.chars().find(char::is_ascii_alphabetic))
            .map(|c| c.to_ascii_uppercase());
        let c = initial
            .filter(|c| !taken.contains(c))
            .or_else(|| ('A'..='Z').find(|c| !taken.contains(c)))
            .unwrap_or('?');
        taken.push(c);
    }
    taken
}

/// The picture of `units` on `map`, with `sides` naming the sides: a line
/// saying which squares it shows, the fenced block, and the key, as
/// Markdown ending in a newline.
pub fn picture(map: &Map, sides: &[&str], units: &[Placed]) -> String {
    let nsides = units
        .iter()
        .map(|u| u.side + 1)
        .max()
        .unwrap_or(0)
        .max(sides.len());
    let letter = letters(nsides, sides);
    let side_name = |k: usize| -> String {
        sides
            .get(k)
            .map_or_else(|| format!("side {}", k + 1), |s| s.to_string())
    };

    // Which squares to show (0-based, inclusive).
    let (w, h) = (map.width(), map.height());
    let on_map: Vec<&Placed> = units.iter().filter(|u| map.contains(u.square)).collect();
    let whole = w <= WHOLE.0 && h <= WHOLE.1;
    let (x0, x1, y0, y1) = if whole {
        (0, w - 1, 0, h - 1)
    } else if on_map.is_empty() {
        (0, w.min(WHOLE.0) - 1, 0, h.min(WHOLE.1) - 1)
    } else {
        let xs = on_map.iter().map(|u| u.square.x as usize);
        let ys = on_map.iter().map(|u| u.square.y as usize);
        let (lx, hx) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (ly, hy) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        (
            lx.saturating_sub(CROP_MARGIN),
            (hx + CROP_MARGIN).min(w - 1),
            ly.saturating_sub(CROP_MARGIN),
            (hy + CROP_MARGIN).min(h - 1),
        )
    };

    // The drawn character of each shown square, and who is hidden.
    let cols = x1 - x0 + 1;
    let mut rows: Vec<Vec<char>> = (y0..=y1)
        .map(|y| {
            (x0..=x1)
                .map(|x| ground_char(map.at(Square::new(x as u8, y as u8))))
                .collect()
        })
        .collect();
    let ground_seen: Vec<char> = {
        let mut seen: Vec<char> = rows.iter().flatten().copied().collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    };
    let glyph = |u: &Placed| {
        let c = letter[u.side];
        if u.standing {
            c
        } else {
            c.to_ascii_lowercase()
        }
    };
    // The unit drawn on each square: standing before fallen, then in order.
    let mut drawn: Vec<Option<usize>> = vec![None; cols * (y1 - y0 + 1)];
    for standing in [true, false] {
        for (i, u) in units.iter().enumerate() {
            if u.standing != standing || !map.contains(u.square) {
                continue;
            }
            let k = (u.square.y as usize - y0) * cols + (u.square.x as usize - x0);
            if drawn[k].is_none() {
                drawn[k] = Some(i);
                rows[u.square.y as usize - y0][u.square.x as usize - x0] = glyph(u);
            }
        }
    }

    let mut md = String::new();
    let span = |a: usize, b: usize| {
        if a == b {
            format!("{}", a + 1)
        } else {
            format!("{}–{}", a + 1, b + 1)
        }
    };
    let which = if whole {
        format!("the whole {w} × {h} map")
    } else if on_map.is_empty() {
        format!("of the {w} × {h} map, its top left: no unit is on it")
    } else {
        format!("of the {w} × {h} map: the units and {CROP_MARGIN} squares round them")
    };
    md.push_str(&format!(
        "x {}, y {} ({which}); x counts columns from 1 at the left, y rows from 1 at the top.\n\n",
        span(x0, x1),
        span(y0, y1)
    ));
    md.push_str("```text\n");
    let gutter = (y1 + 1).to_string().len();
    let pad = " ".repeat(gutter + 2);
    // Every tenth column's number, and the first column's where it does
    // not run into the next one; then each column's units digit.
    let mut tens: Vec<char> = vec![' '; cols + 3];
    let mut put = |p: usize, n: usize| {
        for (j, c) in n.to_string().chars().enumerate() {
            tens[p + j] = c;
        }
    };
    let first_ten = (x0..=x1).find(|x| (x + 1) % 10 == 0).map(|x| x - x0);
    for x in (x0..=x1).filter(|x| (x + 1) % 10 == 0) {
        put(x - x0, x + 1);
    }
    if first_ten != Some(0) && first_ten.is_none_or(|p| (x0 + 1).to_string().len() < p) {
        put(0, x0 + 1);
    }
    let tens: String = tens.into_iter().collect();
    md.push_str(&format!("{pad}{}\n", tens.trim_end()));
    let units_digits: String = (x0..=x1)
        .map(|x| char::from(b'0' + ((x + 1) % 10) as u8))
        .collect();
    md.push_str(&format!("{pad}{units_digits}\n"));
    for (r, row) in rows.iter().enumerate() {
        let line: String = row.iter().collect();
        md.push_str(&format!("{:>gutter$}  {line}\n", y0 + r + 1));
    }
    md.push_str("```\n\n");

    // The key: each side's standing units, then its fallen, then the ground.
    let at = |i: usize, u: &Placed| -> String {
        if !map.contains(u.square) {
            return format!("{} (off the map)", u.label);
        }
        let (x, y) = (u.square.x + 1, u.square.y + 1);
        let k = (u.square.y as usize - y0) * cols + (u.square.x as usize - x0);
        match drawn[k] {
            Some(j) if j != i => format!("{} ({x}, {y}, under `{}`)", u.label, glyph(&units[j])),
            _ => format!("{} ({x}, {y})", u.label),
        }
    };
    for (k, &side_letter) in letter.iter().enumerate() {
        for standing in [true, false] {
            let listed: Vec<String> = units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.side == k && u.standing == standing)
                .map(|(i, u)| at(i, u))
                .collect();
            if listed.is_empty() {
                continue;
            }
            let c = if standing {
                side_letter
            } else {
                side_letter.to_ascii_lowercase()
            };
            let state = if standing { "standing" } else { "fallen" };
            md.push_str(&format!(
                "- `{c}` {}, {state}: {}\n",
                side_name(k),
                listed.join(", ")
            ));
        }
    }
    let mut ground: Vec<String> = GROUND
        .iter()
        .filter(|(c, _)| ground_seen.contains(c))
        .map(|(c, name)| format!("`{c}` {name}"))
        .collect();
    let digits: Vec<char> = ground_seen
        .iter()
        .copied()
        .filter(char::is_ascii_digit)
        .collect();
    if !digits.is_empty() {
        let list: Vec<String> = digits.iter().map(|d| format!("`{d}`")).collect();
        ground.push(format!("{} elevation level", list.join(" ")));
    }
    md.push_str(&format!("- ground: {}\n", ground.join(", ")));
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(x: u8, y: u8, side: usize, standing: bool, label: &str) -> Placed<'_> {
        Placed {
            square: Square::new(x, y),
            side,
            standing,
            label,
        }
    }

    #[test]
    fn a_small_map_is_shown_whole() {
        let map = Map::parse(
            "
..........
...#......
.~~#..--..
...#...2..
",
            std::iter::empty::<(&str, &str)>(),
        )
        .expect("map");
        let units = [
            unit(1, 0, 0, true, "Sir Bors"),
            unit(1, 2, 0, false, "Sir Kay"),
            unit(5, 1, 1, true, "Kobold 1"),
            unit(5, 1, 1, false, "Kobold 2"),
            unit(8, 3, 1, false, "Kobold 3"),
        ];
        // Both sides begin with K: the kobolds take the first free letter.
        let expected = "\
x 1–10, y 1–4 (the whole 10 × 4 map); x counts columns from 1 at the left, y rows from 1 at the top.

```text
   1        10
   1234567890
1  .K........
2  ...#.A....
3  .k~#..--..
4  ...#...2a.
```

- `K` Knights, standing: Sir Bors (2, 1)
- `k` Knights, fallen: Sir Kay (2, 3)
- `A` Kobolds, standing: Kobold 1 (6, 2)
- `a` Kobolds, fallen: Kobold 2 (6, 2, under `A`), Kobold 3 (9, 4)
- ground: `.` open ground, `#` wall, `-` low cover, `~` difficult ground, `2` elevation level
";
        assert_eq!(picture(&map, &["Knights", "Kobolds"], &units), expected);
    }

    #[test]
    fn a_large_map_is_cropped_round_the_units() {
        let map = Map::open(64, 64);
        let units = [unit(30, 30, 0, true, "Ada"), unit(33, 31, 1, true, "Grok")];
        let expected = "\
x 29–36, y 29–34 (of the 64 × 64 map: the units and 2 squares round them); x counts columns from 1 at the left, y rows from 1 at the top.

```text
     30
    90123456
29  ........
30  ........
31  ..H.....
32  .....O..
33  ........
34  ........
```

- `H` Heroes, standing: Ada (31, 31)
- `O` Orcs, standing: Grok (34, 32)
- ground: `.` open ground
";
        assert_eq!(picture(&map, &["Heroes", "Orcs"], &units), expected);
    }

    #[test]
    fn every_terrain_has_its_character() {
        let map = crate::report::charts::ground::fixtures::every_terrain();
        let text = picture(&map, &["blue", "red"], &[]);
        let rows: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("```text"))
            .skip(3)
            .take(6)
            .collect();
        assert_eq!(
            rows,
            [
                "1  #########.....",
                "2  #.....-=~__.~#",
                "3  #.123456789..#",
                "4  #.._._.-.=...#",
                "5  #............#",
                "6  ##############",
            ]
        );
        assert!(text.ends_with(
            "- ground: `.` open ground, `#` wall, `-` low cover, `=` high cover, \
             `~` difficult ground, `_` trench or foxhole, `1` `2` `3` `4` `5` `6` `7` `8` `9` \
             elevation level\n"
        ));
    }

    #[test]
    fn side_letters_avoid_each_other() {
        assert_eq!(letters(3, &["alpha", "Alpine", "77"]), ['A', 'B', 'C']);
        assert_eq!(letters(2, &["orcs"]), ['O', 'A']);
    }
}
