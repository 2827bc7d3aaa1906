//! The reference duel written out by hand: the ceiling a duel through
//! skirmish is measured against (`kernel` and `cost` benches).
//!
//! Two identical d20 fighters: AC 16, 30 HP, +5 to hit, 1d8+3, a natural 20
//! doubles the dice, a natural 1 misses; d20 initiative, ties to the first
//! roller. Same dice source as skirmish (`RngDice`), nothing else shared.

use skirmish::dice::{Dice, RngDice};

/// Fight `fights` reference duels; returns the first fighter's wins (so
/// that the loop's work is used).
pub fn bare_duel(dice: &mut RngDice, fights: u32) -> u32 {
    let mut first_wins = 0;
    for _ in 0..fights {
        let mut hp = [30i32, 30];
        let (a, b) = (dice.d20(), dice.d20());
        let mut turn = usize::from(b > a);
        loop {
            let nat = dice.d20();
            if nat != 1 && (nat == 20 || nat + 5 >= 16) {
                let mut dmg = dice.roll(8) as i32 + 3;
                if nat == 20 {
                    dmg += dice.roll(8) as i32;
                }
                hp[1 - turn] -= dmg;
                if hp[1 - turn] <= 0 {
                    first_wins += u32::from(turn == 0);
                    break;
                }
            }
            turn = 1 - turn;
        }
    }
    first_wins
}
