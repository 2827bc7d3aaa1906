//! `summary.md` of a tactics report: the verdict in plain words (what
//! dominates, the fight's value under best play against its value with the
//! scenario's own plays), then the payoff matrix, best replies, dominated
//! strategies and how to read them.

use crate::analysis::game::Player;
use crate::report::labels::fixed;
use crate::report::model::TacticsModel;
use crate::report::names::{PAYOFF_CSV, PAYOFF_PNG, STRATEGIES_CSV};
use crate::report::numbers::{self, difference, difference_interval, grouped, rate_with_interval};

/// `summary.md`.
pub(crate) fn render(m: &TacticsModel) -> String {
    let r = m.results;
    let [a, b] = [&r.sides[0], &r.sides[1]];
    let mut out = format!("# {}: best play\n\n", m.info.name);
    if !m.info.description.is_empty() {
        out.push_str(&format!("{}\n\n", m.info.description));
    }
    out.push_str(&format!(
        "Plays fought in {}: {} strategies of {a} against {} of {b}, {}, every pair on the \
         same random numbers batch by batch. The payoff is {} win rate plus half the draws; \
         {} is one minus it.\n\n",
        r.base_label,
        r.strategies[0].len(),
        r.strategies[1].len(),
        fights_per_pair(m),
        possessive(a),
        possessive(b),
    ));
    for s in 0..2 {
        if r.paths[s].is_empty() {
            out.push_str(&format!(
                "- {} plays the scenario's own play (no `[plays.{}]`).\n",
                r.sides[s], r.sides[s]
            ));
        } else {
            out.push_str(&format!(
                "- {} strategies combine {}.\n",
                possessive(&r.sides[s]),
                r.paths[s]
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(" × ")
            ));
        }
    }
    out.push_str("\n## Verdict\n\n");
    out.push_str(&verdict(m));
    out.push_str(&format!(
        "\n## Payoff matrix\n\n[{PAYOFF_PNG}]({PAYOFF_PNG}) draws it; [{PAYOFF_CSV}]({PAYOFF_CSV}) \
         has every pair with its interval, win rates and length; \
         [{STRATEGIES_CSV}]({STRATEGIES_CSV}) every strategy with its optimal probability, \
         worst case and dominance. Rows: {a}; columns: {b}. `*` marks {} best reply in a \
         column, `°` {} best reply in a row.\n\n",
        possessive(a),
        possessive(b)
    ));
    out.push_str(&format!("| {a} \\ {b} |"));
    for label in &r.strategies[1] {
        out.push_str(&format!(" {label} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(r.strategies[1].len()));
    out.push('\n');
    for (i, label) in r.strategies[0].iter().enumerate() {
        out.push_str(&format!("| {label} |"));
        for j in 0..r.strategies[1].len() {
            let mark = match (m.best[0][j].best == i, m.best[1][i].best == j) {
                (true, true) => "*°",
                (true, false) => "*",
                (false, true) => "°",
                (false, false) => "",
            };
            let shown = match m.intervals[i * r.strategies[1].len() + j] {
                Some(d) => numbers::rate(d.estimate, &d.ci),
                None => fixed(m.payoff(i, j), 3),
            };
            out.push_str(&format!(" {shown}{mark} |"));
        }
        out.push('\n');
    }
    out.push_str("\n## Best replies\n\n");
    for s in 0..2 {
        out.push_str(&format!(
            "{} best reply to each strategy of {}:\n\n",
            possessive(&r.sides[s]),
            r.sides[1 - s]
        ));
        for reply in &m.best[s] {
            let ties = if reply.as_good.is_empty() {
                String::new()
            } else {
                format!(
                    " (as good within noise: {})",
                    reply
                        .as_good
                        .iter()
                        .map(|&k| r.strategies[s][k].clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            out.push_str(&format!(
                "- against {}: **{}**, payoff {:.3} to {}{ties}\n",
                r.strategies[1 - s][reply.against],
                r.strategies[s][reply.best],
                reply.payoff,
                r.sides[s]
            ));
        }
        out.push('\n');
    }
    out.push_str("## Dominated strategies\n\n");
    if m.dominated.iter().all(Vec::is_empty) {
        out.push_str(
            "None: every strategy is the better one against some strategy of the other side.\n",
        );
    }
    for s in 0..2 {
        for d in &m.dominated[s] {
            let (k, least) = &d.least;
            out.push_str(&format!(
                "- {} **{}** is dominated by **{}**{}: it gains at least {} {} (against \
                 {} {}), more against every other.\n",
                possessive(&r.sides[s]),
                r.strategies[s][d.dominated],
                r.strategies[s][d.by],
                if d.confident {
                    ""
                } else {
                    " on the estimates only (some paired interval includes zero)"
                },
                difference(least),
                difference_interval(least),
                possessive(&r.sides[1 - s]),
                r.strategies[1 - s][*k],
            ));
        }
    }
    out.push_str(
        "\n## How to read this\n\n\
         - A strategy *dominates* another when it does better against every strategy of the \
         other side; \"confidently\" means every paired 95% interval (batch means over common \
         random numbers) is above zero.\n\
         - *Best play* is the equilibrium of the two-side zero-sum game: each side's mix of \
         strategies that guarantees it the most whatever the other does (a linear program). \
         Its *value* is the first side's payoff when both play their best; its interval comes \
         from the batches at the best mixes (it does not include the chance that noise chose \
         the mix: see \"within noise\" above).\n\
         - A strategy's probability in a mix is how often to play it so that the other side \
         cannot exploit the choice; a single strategy at 100% is a play to use every time.\n",
    );
    out
}

/// The verdict: what dominates, the value under best play and with the
/// scenario's own plays, each side's best play (also what the command
/// prints).
pub(crate) fn verdict(m: &TacticsModel) -> String {
    let r = m.results;
    let a = &r.sides[0];
    let mut out = String::new();
    for s in 0..2 {
        if let Some(d) = m.dominant(s) {
            out.push_str(&format!(
                "- **{} dominates for {}**: it does better than each other strategy of {} \
                 against every strategy of {} (every paired 95% interval above zero).\n",
                r.strategies[s][d],
                r.sides[s],
                r.sides[s],
                r.sides[1 - s]
            ));
        }
    }
    let value = match m.value {
        Some(v) => rate_with_interval(v.estimate, &v.ci),
        None => fixed(m.equilibrium.value, 3),
    };
    let own = match m.own_payoff() {
        Some((i, j, Some(p))) => format!(
            "; with the scenario's own plays ({} against {}) it is {}",
            r.strategies[0][i],
            r.strategies[1][j],
            rate_with_interval(p.estimate, &p.ci)
        ),
        _ => "; the scenario's own plays are not among the candidates".to_string(),
    };
    out.push_str(&format!(
        "- The fight's value under best play is **{value}** for {a}{own}.\n"
    ));
    for (s, player) in [(0, Player::First), (1, Player::Second)] {
        let mix = [&m.equilibrium.first, &m.equilibrium.second][s];
        let played: Vec<String> = m
            .equilibrium
            .support(player)
            .iter()
            .map(|&k| format!("{} ({:.0}%)", r.strategies[s][k], 100.0 * mix[k]))
            .collect();
        out.push_str(&format!(
            "- {} best play: {}.\n",
            possessive(&r.sides[s]),
            played.join(", ")
        ));
        if !m.rivals[s].is_empty() {
            out.push_str(&format!(
                "  - Within noise of it: {} (against {} best play, the paired intervals \
                 include zero): more fights would tell them apart.\n",
                m.rivals[s]
                    .iter()
                    .map(|&k| r.strategies[s][k].clone())
                    .collect::<Vec<_>>()
                    .join(", "),
                possessive(&r.sides[1 - s])
            ));
        }
    }
    if m.equilibrium.is_pure() {
        out.push_str(
            "- The best plays form a saddle point: neither side gains by changing its play \
             alone, and neither needs to mix.\n",
        );
    }
    out
}

/// How many fights each pair got: one number, or under a precision
/// target (a raced game) where the fights went and whether the target was
/// reached.
fn fights_per_pair(m: &TacticsModel) -> String {
    let r = m.results;
    let fights: Vec<u64> = m.summaries.iter().map(|s| s.fights).collect();
    let least = fights.iter().copied().min().unwrap_or(0);
    let most = fights.iter().copied().max().unwrap_or(0);
    let Some(p) = &m.info.precision else {
        return format!("{} fights a pair", grouped(least));
    };
    let cols = r.strategies[1].len();
    let raced = |s: usize| -> Vec<String> {
        let n = r.strategies[s].len();
        (0..n)
            .filter(|&k| {
                (0..r.strategies[1 - s].len()).any(|o| {
                    let (i, j) = if s == 0 { (k, o) } else { (o, k) };
                    fights[i * cols + j] == most
                })
            })
            .map(|k| format!("`{}`", r.strategies[s][k]))
            .collect()
    };
    let capped = r.run.cells.iter().filter(|c| c.capped).count();
    let reached = if capped == 0 {
        format!("every payoff among them is within ±{} (95%)", p.target)
    } else {
        format!(
            "{capped} of them stopped at the cap of {} fights with a payoff wider than ±{} \
             (column `capped` of {PAYOFF_CSV})",
            grouped(p.max_fights),
            p.target
        )
    };
    if least == most {
        return format!(
            "raced to ±{}: every pair decides the game, and each got {} fights; {reached}",
            p.target,
            grouped(most)
        );
    }
    // Pairs contested in an early round only have counts in between.
    let others = fights
        .iter()
        .copied()
        .filter(|&f| f < most)
        .max()
        .unwrap_or(least);
    let rest = if others == least {
        grouped(least)
    } else {
        format!("{} to {}", grouped(least), grouped(others))
    };
    format!(
        "raced to ±{}: the pairs that decide the game (each side's equilibrium strategies and \
         their close rivals: {} of {} against {} of {}) got {} fights each, the other pairs \
         {}; {reached}",
        p.target,
        raced(0).join(", "),
        r.sides[0],
        raced(1).join(", "),
        r.sides[1],
        grouped(most),
        rest,
    )
}

/// `raiders'`, `champion's`.
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}
