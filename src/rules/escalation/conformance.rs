//! `escalation`'s conformance table: every rule of its source text, the
//! "Combat rules" page, by the section it stands in, how skirmish models it,
//! and the tests in `tests.rs` that pin it. Printed by `skirmish
//! rules escalation`; checked by `rules::conformance`'s tests.

use crate::rules::{Clause, Modelled};

const INTRO: &str = "Combat rules";

pub const TABLE: &[Clause] = &[
    // ---- Combat rules (the opening paragraphs)
    Clause {
        section: INTRO,
        rule: "the unit with the highest Agility modifier takes the first turn, then the next highest",
        modelled: Modelled::AsWritten,
        how: "the default `initiative = \"fixed\"` orders by Agility modifier, no roll, once per fight (a slowing wound does not reorder); ties (the text is silent) by the engine's `initiative_ties` (default random, drawn once per fight). The engine's other schemes work too (rolled ones roll d20 + Agility, which the text does not have)",
        tests: &["order_is_descending_agility_and_the_initiator_goes_last"],
    },
    Clause {
        section: INTRO,
        rule: "a turn = 1 Attack Action, 1 Move Action, 2 Bonus Actions; the round ends when all units have had their turn",
        modelled: Modelled::AsWritten,
        how: "each turn has one AA, one MA and two BAs (option `bonus_actions`, default 2; fewer after weakening wounds or an off-turn stand-up), spent by the unit's tactic and `bonus` policy; see the action sections. The one AA and one MA are constants: each is a single thing the tactic spends once (attack, disengage; move, extra attack), and the text gives no use for a second",
        tests: &[
            "bonus_actions_buy_accuracy_damage_dodge_or_an_extra_attack",
            "moving_spends_the_move_action_and_bonus_actions_for_spaces",
            "option_bonus_actions_is_the_bonus_actions_a_turn",
        ],
    },
    Clause {
        section: INTRO,
        rule: "the battle continues until all units of one team are defeated, flee, or lose the will to fight",
        modelled: Modelled::Option("flee_at"),
        how: "0 HP defeats (the text names no other HP rule). The text gives no trigger for losing the will to fight, so by default sides fight to the end; `flee_at` = f makes a side whose standing units are at most f of its roster flee: each unit disengages if it can, backs off (provoking otherwise) and leaves",
        tests: &["zero_hp_defeats_and_the_fight_ends", "a_side_may_lose_the_will_to_fight"],
    },
    Clause {
        section: INTRO,
        rule: "victorious units have their MP replenished after the battle",
        modelled: Modelled::NotModelled,
        how: "after the fight; no spells or MP are simulated",
        tests: &[],
    },
    // ---- Attack Action
    Clause {
        section: "Attack Action",
        rule: "the AA can attack",
        modelled: Modelled::AsWritten,
        how: "one attack with the best weapon (highest mean damage) that reaches the target; on a map only at a target in line of sight (a symmetric grid line; walls block it): the text does not shoot through walls",
        tests: &[
            "a_hit_needs_d20_plus_accuracy_at_least_ten_plus_agility",
            "an_attack_needs_a_line_of_sight",
        ],
    },
    Clause {
        section: "Attack Action",
        rule: "the AA can disengage from an enemy's melee zone without provoking a free hit",
        modelled: Modelled::Abstraction,
        how: "a policy on the stat block: `disengage = \"attack\"` spends the AA (no attack that turn) when a keep-range or fleeing unit leaves a zone; `\"bonus\"` (default) spends both BAs; `\"none\"` provokes",
        tests: &["backing_off_provokes_a_free_hit_unless_disengaged"],
    },
    Clause {
        section: "Attack Action",
        rule: "the AA can get up out of prone",
        modelled: Modelled::Abstraction,
        how: "a prone unit stands with its cheapest action: a BA (see Prone); the AA or MA only if no BA is left (the MA)",
        tests: &["standing_up_costs_a_bonus_action_and_weakened_units_have_fewer"],
    },
    Clause {
        section: "Attack Action",
        rule: "the AA (or MA, or a BA) can pay a spell's cast time, pick up an item, draw or sheathe a weapon, talk",
        modelled: Modelled::NotModelled,
        how: "no spells, items or talk; a unit's weapons are all at hand (choosing among them costs no action): the Weapons tab the text refers to is absent",
        tests: &[],
    },
    // ---- Move Action
    Clause {
        section: "Move Action",
        rule: "the MA moves the unit (traditionally 6 spaces)",
        modelled: Modelled::Abstraction,
        how: "`speed` spaces (default 6) along the one-dimensional front; an advancing unit moves only as far as its melee zone (or range) needs. The 6 is the stat block's `speed` default, not an option: a unit's own number, set per stat block (the Athlete feat is `speed = 8`). On a map (`[map]`) a square is one space (`Escalation::MAP_SCALE`, `[map] scale` overrides): units move square by square along cheapest paths, a diagonal one space (Chebyshev: the melee zone's eight squares are all adjacent), around walls, through allies but not enemies, onto a free square",
        tests: &[
            "moving_spends_the_move_action_and_bonus_actions_for_spaces",
            "a_square_is_one_space_and_diagonals_count_one",
        ],
    },
    Clause {
        section: "Move Action",
        rule: "the MA can get up out of prone",
        modelled: Modelled::AsWritten,
        how: "used when the unit has no Bonus Action left (two weakening wounds)",
        tests: &["standing_up_costs_a_bonus_action_and_weakened_units_have_fewer"],
    },
    Clause {
        section: "Move Action",
        rule: "half spaces when sneaking, swimming, climbing, carrying max capacity",
        modelled: Modelled::NotModelled,
        how: "no terrain or encumbrance on the front (so the halving is no option either). On a map difficult cells (`~`) cost 2 spaces a square (the map engine's step costs), which a designer may read as the halving for climbing or swimming ground; sneaking and carrying are still not simulated",
        tests: &[],
    },
    // ---- Bonus Actions
    Clause {
        section: "Bonus Actions",
        rule: "a BA can boost the chance to hit by +1",
        modelled: Modelled::Option("bonus_stacks"),
        how: "`bonus = \"accuracy\"` (default policy): +1 per BA (option `bonus_accuracy`, default 1) to this turn's attacks; two BAs give +2 (`bonus_stacks = true`, default: each BA is a separate +1); `false`: two give +1",
        tests: &[
            "bonus_actions_buy_accuracy_damage_dodge_or_an_extra_attack",
            "option_bonus_accuracy_is_the_to_hit_a_bonus_action_buys",
        ],
    },
    Clause {
        section: "Bonus Actions",
        rule: "a BA can increase melee damage by +1 for that round",
        modelled: Modelled::AsWritten,
        how: "`bonus = \"damage\"`: +1 per BA (option `bonus_damage`, default 1) to melee damage for the rest of the round, free hits included",
        tests: &[
            "bonus_actions_buy_accuracy_damage_dodge_or_an_extra_attack",
            "option_bonus_damage_is_the_melee_damage_a_bonus_action_buys",
        ],
    },
    Clause {
        section: "Bonus Actions",
        rule: "a BA can enhance the ability to dodge by +1",
        modelled: Modelled::Abstraction,
        how: "`bonus = \"dodge\"`: +1 per BA (option `bonus_dodge`, default 1) to the unit's 10 + Agility until its next turn (the text gives no duration); BAs left on a turn without an attack also go to dodge",
        tests: &[
            "bonus_actions_buy_accuracy_damage_dodge_or_an_extra_attack",
            "option_bonus_dodge_is_the_dodge_a_bonus_action_buys",
        ],
    },
    Clause {
        section: "Bonus Actions",
        rule: "a BA can move an additional 2 spaces",
        modelled: Modelled::AsWritten,
        how: "an advancing unit that the MA does not bring into reach spends BAs, 2 spaces each (option `bonus_move`, default 2); a fleeing unit spends what it has left",
        tests: &[
            "moving_spends_the_move_action_and_bonus_actions_for_spaces",
            "option_bonus_move_is_the_spaces_a_bonus_action_buys",
        ],
    },
    Clause {
        section: "Bonus Actions",
        rule: "the MA and both BAs buy an additional attack, without feats or Strength modifier",
        modelled: Modelled::AsWritten,
        how: "`bonus = \"extra-attack\"`: the MA and two BAs (option `extra_attack_bonus_actions`, default 2; a price above what the turn has is never paid) buy a second attack without Strength when the MA was not needed to move (otherwise the BAs go to accuracy); it takes another target in reach if the first fell",
        tests: &[
            "bonus_actions_buy_accuracy_damage_dodge_or_an_extra_attack",
            "option_extra_attack_bonus_actions_is_the_extra_attacks_price",
        ],
    },
    Clause {
        section: "Bonus Actions",
        rule: "two BAs disengage from an enemy's melee zone without provoking a free hit",
        modelled: Modelled::AsWritten,
        how: "`disengage = \"bonus\"` (default): a keep-range or fleeing unit in a zone spends two BAs (option `disengage_bonus_actions`, default 2), if it still has them, before it backs off",
        tests: &[
            "backing_off_provokes_a_free_hit_unless_disengaged",
            "a_side_may_lose_the_will_to_fight",
            "option_disengage_bonus_actions_is_the_price_of_a_clean_break",
        ],
    },
    Clause {
        section: "Bonus Actions",
        rule: "a BA can get up out of prone, even off-turn, removing the BA from the next turn",
        modelled: Modelled::Option("stand_off_turn"),
        how: "default: a unit that starts the fight prone stands up at once, before anybody's first turn (after an initiator's opening attack) and has one BA fewer on its first turn; `stand_off_turn = false`: it stands on its own turn with a BA of that turn. Standing costs one action: a constant (the text's unit of cost, not a number of the rule)",
        tests: &["a_prone_unit_stands_up_off_turn_at_the_cost_of_a_bonus_action"],
    },
    Clause {
        section: "Bonus Actions",
        rule: "a BA can pick up an item, draw or sheathe a weapon, talk, toggle spell effects",
        modelled: Modelled::NotModelled,
        how: "no items, talk or spells; weapons are all at hand",
        tests: &[],
    },
    // ---- Initiative/Initiating
    Clause {
        section: "Initiative/Initiating",
        rule: "whoever initiates combat by attacking before the battle officially starts is placed last in the lineup",
        modelled: Modelled::AsWritten,
        how: "`initiator = true` on the stat block: initiative stat Agility - 1000 (last whatever its Agility; the 1000 is the code's way of saying last, not a number of the text)",
        tests: &["order_is_descending_agility_and_the_initiator_goes_last"],
    },
    Clause {
        section: "Initiative/Initiating",
        rule: "the initiator's attack before the battle",
        modelled: Modelled::Option("opening_attack"),
        how: "`true` (default, as written): before the first turn of round 1 each initiator makes one attack (no move, no Bonus Actions) on a target its weapons reach where it stands (none in reach: no attack); it counts as part of round 1 (Free Hit Slots, a disrupting wound's -3). An undetected initiator's opening attack is its sneak attack. `false`: no opening attack, the initiator only acts last (to compare with and without the opening strike)",
        tests: &[
            "the_initiator_attacks_before_the_first_turn_then_acts_last",
            "statistically_an_opening_disrupting_wound_costs_3_accuracy_that_round",
            "without_the_opening_attack_the_initiator_only_goes_last",
        ],
    },
    Clause {
        section: "Initiative/Initiating",
        rule: "a character may delay its turn in the lineup for the round",
        modelled: Modelled::Abstraction,
        how: "a fixed tactic: `delay = N` on the stat block makes the unit act every round as if its Agility were N lower",
        tests: &["order_is_descending_agility_and_the_initiator_goes_last"],
    },
    // ---- Attacking
    Clause {
        section: "Attacking",
        rule: "d20 + Accuracy modifier >= the target's Agility modifier + 10 hits; lower misses",
        modelled: Modelled::AsWritten,
        how: "d20 + `accuracy` + the weapon's `accuracy` + boosts >= 10 (option `defence_base`, default 10) + Agility (after slowing wounds) + dodge. The d20 itself is no option: it is the die every other number of the text (10, 5, 20, 1) is set against",
        tests: &[
            "a_hit_needs_d20_plus_accuracy_at_least_ten_plus_agility",
            "statistically_plus_2_vs_11_hits_twelve_twentieths",
            "option_defence_base_is_the_ten_of_ten_plus_agility",
        ],
    },
    Clause {
        section: "Attacking",
        rule: "damage depends on the weapon or spell (the Weapons tab)",
        modelled: Modelled::Abstraction,
        how: "the tab is absent: weapons give their damage dice (`damage`), `kind` (melee: Strength and the BA damage bonus apply; ranged) and `range`; armour is `armor`, a damage reduction per attack (the text names armour without values)",
        tests: &["a_hit_needs_d20_plus_accuracy_at_least_ten_plus_agility", "wounds_need_six_net_damage_after_armour"],
    },
    // ---- Wounds/Aiming
    Clause {
        section: "Wounds/Aiming",
        rule: "a wound: a single attack dealing 6 or more net damage, after armour and other reductions",
        modelled: Modelled::AsWritten,
        how: "net damage = (damage - armour, at least 0) x the critical multiplier; >= 6 (option `wound_threshold`, default 6) wounds, with the attacker's aim's effect; effects last the battle (nothing heals)",
        tests: &["wounds_need_six_net_damage_after_armour", "option_wound_threshold_is_the_six_net_damage_that_wounds"],
    },
    Clause {
        section: "Wounds/Aiming",
        rule: "aim is the attacker's choice for any physical attack",
        modelled: Modelled::Abstraction,
        how: "a fixed policy per stat block: `aim` = center-mass (default), fatal, slowing, weakening or disrupting",
        tests: &["each_aim_has_its_wound_effect"],
    },
    Clause {
        section: "Wounds/Aiming",
        rule: "Fatal Targets: on a wound, a 1/4 chance to add 16 damage to the attack",
        modelled: Modelled::Option("fatal_bonus_multiplied"),
        how: "on a wound a d4 (option `fatal_die`, default 4; its top face) of 4 adds 16 (option `fatal_bonus`, default 16), after the critical multiplier (default: 'add 16 additional damage to the attack'); `fatal_bonus_multiplied = true`: x the multiplier too",
        tests: &[
            "each_aim_has_its_wound_effect",
            "option_fatal_die_is_the_fatal_aims_one_in_four",
            "option_fatal_bonus_is_the_fatal_aims_sixteen",
        ],
    },
    Clause {
        section: "Wounds/Aiming",
        rule: "Slowing Targets: on a wound, movement -2 and Agility modifier -1",
        modelled: Modelled::AsWritten,
        how: "per wound, for the battle: -2 spaces per MA (option `slowing_speed`, default 2), -1 Agility (option `slowing_agility`, default 1: defence and Free Hit Slots; the turn order, fixed at the start, is not redone)",
        tests: &[
            "each_aim_has_its_wound_effect",
            "free_hit_slots_are_agility_plus_one_per_round",
            "options_slowing_speed_and_agility_are_a_slowing_wounds_losses",
        ],
    },
    Clause {
        section: "Wounds/Aiming",
        rule: "Weakening Targets: on a wound, Strength modifier -1 and 1 Bonus Action removed",
        modelled: Modelled::AsWritten,
        how: "per wound, for the battle (like the Strength loss beside it): -1 Strength on melee damage (option `weakening_strength`, default 1) and one BA fewer every turn (option `weakening_bonus_actions`, default 1)",
        tests: &[
            "each_aim_has_its_wound_effect",
            "standing_up_costs_a_bonus_action_and_weakened_units_have_fewer",
            "options_weakening_strength_and_bonus_actions_are_a_weakening_wounds_losses",
        ],
    },
    Clause {
        section: "Wounds/Aiming",
        rule: "Disrupting Targets: on a wound, Accuracy -1 for the entire battle and -3 for the current round",
        modelled: Modelled::Option("disrupting_adds"),
        how: "default: -3 in the round of the wound (option `disrupting_round_accuracy`, default 3: the text's number for that round), -1 from the next round on (option `disrupting_accuracy`, default 1), per wound; `disrupting_adds = true`: the two add up, -4 that round. Without `disrupting_adds` the round's number must be at least the battle's (refused otherwise)",
        tests: &[
            "a_disrupting_wound_is_minus_3_this_round_and_minus_1_after",
            "statistically_an_opening_disrupting_wound_costs_3_accuracy_that_round",
            "options_disrupting_accuracy_and_round_accuracy_are_a_disrupting_wounds_losses",
            "a_disrupting_round_below_the_battles_is_refused_unless_they_add",
        ],
    },
    Clause {
        section: "Wounds/Aiming",
        rule: "Center Mass: no wound effect, +1 accuracy on the attack",
        modelled: Modelled::AsWritten,
        how: "`aim = \"center-mass\"` (default): +1 to hit (option `center_mass_accuracy`, default 1)",
        tests: &[
            "a_hit_needs_d20_plus_accuracy_at_least_ten_plus_agility",
            "option_center_mass_accuracy_is_center_mass_aims_bonus",
        ],
    },
    Clause {
        section: "Wounds/Aiming",
        rule: "a wound is removed by a single heal of 6 HP or more, or an explicit effect",
        modelled: Modelled::NotModelled,
        how: "no healing is simulated (so the heal of 6 is no option)",
        tests: &[],
    },
    // ---- Spell Casting
    Clause {
        section: "Spell Casting",
        rule: "spells state their cast time in actions; Bonus Actions can improve them",
        modelled: Modelled::NotModelled,
        how: "no spells (their descriptions are not in the text)",
        tests: &[],
    },
    // ---- Auto Fails/Criticals
    Clause {
        section: "Auto Fails/Criticals",
        rule: "a natural 20 is a critical hit; d4 = 4 makes it super critical; then d6 = 6, d8 = 8 and so on",
        modelled: Modelled::Option("nat20_hits"),
        how: "a natural 20 (option `crit_on`, default 20: at or above it) on an attack hits whatever the target number (it is a critical hit; `nat20_hits = false`: only if the total reaches); the d4 (option `super_crit_die`, default 4) and d6 (option `decisive_die`, default 6) are rolled as written, each escalating on its top face; the chain stops at the d6, whose 6 already defeats the target (so the d8 'and so on' is no option)",
        tests: &[
            "crit_chain_doubles_quadruples_then_defeats_instantly",
            "statistically_the_crit_chain_is_1_in_20_80_480",
            "option_crit_on_is_the_natural_roll_that_crits",
            "option_super_crit_die_is_the_d4_that_makes_a_super_critical",
            "option_decisive_die_is_the_d6_that_defeats_outright",
        ],
    },
    Clause {
        section: "Auto Fails/Criticals",
        rule: "a natural 1 is an auto fail; d4 = 4 makes it a tragedy; then d6 and so on",
        modelled: Modelled::AsWritten,
        how: "a natural 1 (option `fumble_on`, default 1: at or below it; it must be below `crit_on`, refused otherwise) on an attack always misses; the d4 (option `tragedy_die`, default 4) and d6 (option `fatal_blow_die`, default 6) are rolled when the chain has consequences (see the next section), each escalating on its top face",
        tests: &[
            "fumble_chain_free_hit_then_free_crit_then_the_attackers_death",
            "statistically_the_fumble_chain_is_1_in_20_80_480",
            "option_fumble_on_is_the_natural_roll_that_auto_fails",
            "a_fumble_at_or_above_the_crit_is_refused",
            "option_tragedy_die_is_the_d4_that_makes_a_tragedy",
            "option_fatal_blow_die_is_the_d6_that_kills_the_fumbler",
        ],
    },
    // ---- Combat specific Fails/Criticals
    Clause {
        section: "Combat specific Fails/Criticals",
        rule: "a natural 1 inside the target's melee zone: the target immediately gets a free hit",
        modelled: Modelled::AsWritten,
        how: "the target's free hit uses one of its Free Hit Slots (none left: no free hit) and its best weapon reaching the attacker; a helpless target makes none; free hits answering free hits nest at most 4 deep (a guard of the code, not a number of the text: no option)",
        tests: &["fumble_chain_free_hit_then_free_crit_then_the_attackers_death"],
    },
    Clause {
        section: "Combat specific Fails/Criticals",
        rule: "a tragedy: the unit gets a free critical hit, even without Free Hit Slots",
        modelled: Modelled::Option("tragedy_hit"),
        how: "default `auto`: it hits without a roll, damage x2 (a critical: option `crit_multiplier`, default 2; no further crit chain); `rolled`: rolled like an attack, x2 if it hits; uses a slot if one is left",
        tests: &[
            "fumble_chain_free_hit_then_free_crit_then_the_attackers_death",
            "option_crit_multiplier_is_a_criticals_double",
        ],
    },
    Clause {
        section: "Combat specific Fails/Criticals",
        rule: "a tragedy escalating to a 6: the unit attacked kills the attacker instantly",
        modelled: Modelled::AsWritten,
        how: "the attacker is out, unless the target is helpless (it cannot deliver a blow); the d6 is option `fatal_blow_die` (default 6)",
        tests: &[
            "fumble_chain_free_hit_then_free_crit_then_the_attackers_death",
            "a_helpless_target_delivers_no_fatal_blow",
            "option_fatal_blow_die_is_the_d6_that_kills_the_fumbler",
        ],
    },
    Clause {
        section: "Combat specific Fails/Criticals",
        rule: "the tragedy and fatal blow: only inside the target's melee zone?",
        modelled: Modelled::Option("fumble_needs_zone"),
        how: "the text ties the free hit to the melee zone and says a tragedy 'worsens' those consequences: by default the whole chain needs the zone; `fumble_needs_zone = false`: at any range",
        tests: &["fumbles_outside_the_melee_zone_roll_no_chain_unless_the_option_says"],
    },
    Clause {
        section: "Combat specific Fails/Criticals",
        rule: "a natural 20 doubles the damage dealt; a super critical doubles it again; escalating to a 6 defeats the target instantly",
        modelled: Modelled::Option("crit_multiplies"),
        how: "default `net`: the damage dealt, after armour, is doubled (option `crit_multiplier`, default 2; x4 for a super critical: option `super_crit_multiplier`, default 4, at least `crit_multiplier`, refused otherwise), as the text counts damage dealt for wounds; `rolled`: the damage rolled is multiplied before armour comes off. d6 = 6 (option `decisive_die`, default 6): the target is out, no damage roll",
        tests: &[
            "critical_hits_double_the_damage_after_armour",
            "crit_chain_doubles_quadruples_then_defeats_instantly",
            "statistically_crits_double_the_net_damage_over_two_rounds",
            "option_crit_multiplier_is_a_criticals_double",
            "option_super_crit_multiplier_is_a_super_criticals_quadruple",
            "a_super_critical_weaker_than_a_critical_is_refused",
            "option_decisive_die_is_the_d6_that_defeats_outright",
        ],
    },
    // ---- Melee Zone
    Clause {
        section: "Melee Zone",
        rule: "the melee zone is all the squares adjacent to a unit",
        modelled: Modelled::Abstraction,
        how: "on the one-dimensional front, the `reach` spaces either side of the unit (default 1; the Reach feat is `reach = 2`); melee weapons reach the zone. The 1 is the stat block's `reach` default, not an option: a unit's own number. On a map it is as written: the squares within `reach` by Chebyshev distance, the eight adjacent ones for `reach = 1`, the 5 x 5 block for Reach",
        tests: &[
            "passing_through_a_melee_zone_provokes_a_free_hit",
            "fumbles_outside_the_melee_zone_roll_no_chain_unless_the_option_says",
            "a_square_is_one_space_and_diagonals_count_one",
            "leaving_the_melee_zone_provokes_a_free_hit_and_disengaging_does_not",
        ],
    },
    // ---- Free Hits/Free Hit Slots (FHS)
    Clause {
        section: "Free Hits/Free Hit Slots (FHS)",
        rule: "a free hit when an enemy moves out of your melee zone",
        modelled: Modelled::AsWritten,
        how: "a move that ends outside a zone after being in it at any point provokes: backing off, and passing through a zone on the way to a target behind; struck at the nearest point of the path in the zone. On a map the path is followed square by square (the squares the move went through, `Turn::last_path`): any step from a square of the zone to one outside it provokes (passing through, or stepping out and back in, is moving out); the free hits come after the move (it is not cut short: the front's abstraction too), in unit order",
        tests: &[
            "leaving_the_melee_zone_provokes_a_free_hit_and_disengaging_does_not",
            "moving_through_a_melee_zone_is_moving_out_of_it",
            "the_path_is_followed_square_by_square",
            "free_hit_triggers_leaving_the_zone_or_moving_more_than_2_in_it",
            "passing_through_a_melee_zone_provokes_a_free_hit",
            "backing_off_provokes_a_free_hit_unless_disengaged",
            "statistically_a_runner_passing_through_a_zone_falls_as_computed",
        ],
    },
    Clause {
        section: "Free Hits/Free Hit Slots (FHS)",
        rule: "a free hit when an enemy moves more than 2 spaces within your melee zone",
        modelled: Modelled::Abstraction,
        how: "more than 2 spaces (option `free_zone_move`, default 2) of the move inside the zone on the front (possible with `reach` >= 2); disengaging does not cover it. On a map as written: the steps of the path from a square of the zone to another (one space each), so walking along an enemy's side or around it counts, stepping into the zone does not",
        tests: &[
            "moving_more_than_two_spaces_within_a_melee_zone_provokes",
            "the_path_is_followed_square_by_square",
            "free_hit_triggers_leaving_the_zone_or_moving_more_than_2_in_it",
            "a_long_reach_gets_a_free_hit_on_units_closing_more_than_2_inside_it",
            "option_free_zone_move_is_the_two_spaces_free_inside_a_zone",
        ],
    },
    Clause {
        section: "Free Hits/Free Hit Slots (FHS)",
        rule: "a free hit when an enemy attacking you rolls a 1",
        modelled: Modelled::AsWritten,
        how: "see Combat specific Fails/Criticals",
        tests: &["fumble_chain_free_hit_then_free_crit_then_the_attackers_death"],
    },
    Clause {
        section: "Free Hits/Free Hit Slots (FHS)",
        rule: "a free hit when a feat grants an additional attack action",
        modelled: Modelled::NotModelled,
        how: "no feats are simulated",
        tests: &[],
    },
    Clause {
        section: "Free Hits/Free Hit Slots (FHS)",
        rule: "Free Hit Slots per round = Agility modifier + 1; 0 or less: none",
        modelled: Modelled::AsWritten,
        how: "Agility + 1 (option `free_hit_slots_base`, default 1); slots reset every round; Agility after slowing wounds; a free hit costs no action",
        tests: &[
            "free_hit_slots_are_agility_plus_one_per_round",
            "backing_off_provokes_a_free_hit_unless_disengaged",
            "option_free_hit_slots_base_is_the_one_of_agility_plus_one",
        ],
    },
    // ---- Disengage
    Clause {
        section: "Disengage",
        rule: "leave enemy melee zones for the round without provoking, for 1 AA or 2 BAs",
        modelled: Modelled::AsWritten,
        how: "after disengaging, leaving (or passing through) any zone provokes nothing for the rest of the round; moving more than 2 spaces inside a zone still does. Who disengages: the stat block's `disengage` policy; the price in BAs is option `disengage_bonus_actions` (default 2), in AAs one (a constant, as the AA is). The same on a map, square by square",
        tests: &[
            "leaving_the_melee_zone_provokes_a_free_hit_and_disengaging_does_not",
            "moving_through_a_melee_zone_is_moving_out_of_it",
            "free_hit_triggers_leaving_the_zone_or_moving_more_than_2_in_it",
            "backing_off_provokes_a_free_hit_unless_disengaged",
            "option_disengage_bonus_actions_is_the_price_of_a_clean_break",
        ],
    },
    Clause {
        section: "Disengage",
        rule: "disengaging through spells and abilities",
        modelled: Modelled::NotModelled,
        how: "no spells or abilities are simulated",
        tests: &[],
    },
    // ---- Flat Footed
    Clause {
        section: "Flat Footed",
        rule: "flat-footed units are hit on 5 whatever their Agility: snuck up on, tied up, frozen, paralyzed",
        modelled: Modelled::AsWritten,
        how: "target number 5 (option `flat_footed_defence`, default 5) against: `flat_footed = true` (all fight), an undetected attacker, and the conditions restrained (tied up), paralyzed, stunned, incapacitated and unconscious",
        tests: &["flat_footed_and_prone_targets", "option_flat_footed_defence_is_the_five_flat_footed_units_are_hit_on"],
    },
    Clause {
        section: "Flat Footed",
        rule: "units tied up, frozen, paralyzed cannot act",
        modelled: Modelled::AsWritten,
        how: "those conditions (restrained, paralyzed, stunned, incapacitated, unconscious) make a unit skip its turn, make no free hits and no fatal blow; under team-alternating activation (`initiative = \"alternating\"`) they never cost their side an activation (`can_act`)",
        tests: &[
            "helpless_units_cost_their_team_no_activation_under_alternating",
            "a_helpless_target_delivers_no_fatal_blow",
        ],
    },
    Clause {
        section: "Flat Footed",
        rule: "prone is semi flat-footed: hit on 5 + Agility",
        modelled: Modelled::AsWritten,
        how: "target number 5 (option `prone_defence_base`, default 5) + Agility against a prone unit, no dodge",
        tests: &[
            "flat_footed_and_prone_targets",
            "a_prone_unit_stands_up_off_turn_at_the_cost_of_a_bonus_action",
            "option_prone_defence_base_is_the_five_of_five_plus_agility",
        ],
    },
    // ---- Prone
    Clause {
        section: "Prone",
        rule: "while prone a unit cannot dodge and moves 1/3 of its movement",
        modelled: Modelled::Abstraction,
        how: "no dodge (5 + Agility); a prone unit stands before it moves, so it never moves prone (so the 1/3 is no option). Prone only comes from the scenario's conditions (nothing in the text knocks a unit down)",
        tests: &["flat_footed_and_prone_targets"],
    },
    Clause {
        section: "Prone",
        rule: "standing up costs 1 AA, MA or BA; off-turn it consumes that action from the next turn; not possible with none left",
        modelled: Modelled::Option("stand_off_turn"),
        how: "always the cheapest, a BA (the MA if none is left); by default off-turn at the start of the fight, from the first turn's BAs (see Bonus Actions)",
        tests: &[
            "a_prone_unit_stands_up_off_turn_at_the_cost_of_a_bonus_action",
            "standing_up_costs_a_bonus_action_and_weakened_units_have_fewer",
        ],
    },
    // ---- The rest of the text
    Clause {
        section: "Disarmed",
        rule: "a disarmed item can be retrieved for 1 AA, MA or BA",
        modelled: Modelled::NotModelled,
        how: "nothing in the text disarms in combat",
        tests: &[],
    },
    Clause {
        section: "Summoning Slots",
        rule: "summoned creatures under control at once = level",
        modelled: Modelled::NotModelled,
        how: "no summoning; summoned units can be written as ordinary units (no option for a number outside the fight)",
        tests: &[],
    },
    Clause {
        section: "Thralling",
        rule: "summoned units vanish or persist by thrall cost",
        modelled: Modelled::NotModelled,
        how: "outside combat (the thrall cost of 6 Mhp x level is no option)",
        tests: &[],
    },
    Clause {
        section: "Summoning Sickness",
        rule: "a summoned unit cannot act or dodge in its first round",
        modelled: Modelled::NotModelled,
        how: "no summoning; `flat_footed = true` gives the no-dodge half for a whole fight (the first round's 1 is no option)",
        tests: &[],
    },
    Clause {
        section: "Channeling",
        rule: "a channeling unit is flat-footed until the spell is cast or cancelled",
        modelled: Modelled::Abstraction,
        how: "no spells: `flat_footed = true` on the stat block makes a unit flat-footed for the whole fight",
        tests: &["flat_footed_and_prone_targets"],
    },
    Clause {
        section: "Flanking",
        rule: "attacking a unit from behind: +1 accuracy",
        modelled: Modelled::Option("flanking"),
        how: "the front has no facing: an attacker in the target's melee zone while another enemy of the target is in it too gets +1 (option `flanking_accuracy`, default 1). On a map, by option `flanking`: `behind` (default, the literal reading; units have no facing, so a target faces the other enemy in its zone): the attacker, in the target's melee zone, stands on the opposite side of the target from another of its enemies in that zone (`map::opposite_sides`: opposite on both axes, north/south, east/west or opposite corners; beside is not behind); `outnumbered`: any second enemy in the zone (the front's reading). A shooter beyond the zone never flanks (the text gives shots no facing either); `flanking` without a map is refused",
        tests: &[
            "flanking_gives_plus_one",
            "option_flanking_accuracy_is_flankings_bonus",
            "flanking_is_attacking_from_behind_another_enemy",
        ],
    },
    Clause {
        section: "Sneak Damage",
        rule: "attacking while undetected: the target is flat-footed and takes an extra d4, multiplied by criticals",
        modelled: Modelled::AsWritten,
        how: "`undetected = true`: the unit's first attack (its only undetected one) finds the target flat-footed and adds 1d4 (option `sneak_die`, default 4; 0: none), before the multiplier",
        tests: &["undetected_attackers_sneak_a_d4_that_crits_multiply", "option_sneak_die_is_the_sneak_attacks_d4"],
    },
    Clause {
        section: "Feats",
        rule: "Reach: melee zone of 2 spaces",
        modelled: Modelled::AsWritten,
        how: "`reach = 2` on the stat block (a unit's number, not an option)",
        tests: &["a_long_reach_gets_a_free_hit_on_units_closing_more_than_2_inside_it"],
    },
    Clause {
        section: "Feats",
        rule: "Athlete: 2 more movement spaces",
        modelled: Modelled::AsWritten,
        how: "`speed = 8` on the stat block (a unit's number, not an option)",
        tests: &["moving_spends_the_move_action_and_bonus_actions_for_spaces"],
    },
    Clause {
        section: "Feats",
        rule: "Sneak attack (+d4 sneak damage), Legion leader, Battle caster, Maneuverer, Weapon focus",
        modelled: Modelled::NotModelled,
        how: "no feats beyond what stat-block fields express (damage dice can carry Weapon focus's extra die); their numbers (Sneak attack's d4, Legion leader's 2 slots) are no options for that reason",
        tests: &[],
    },
    Clause {
        section: "Bonus Actions",
        rule: "`tactic = \"smart\"`: a strong baseline built on the actions the text offers (issue 30)",
        modelled: Modelled::Abstraction,
        how: "a policy, not a rule: a unit with a ranged weapon keeps its range, disengaging with both Bonus Actions before it backs off (Disengage); a melee-only unit advances; either spends its Bonus Actions on the extra attack when the Move Action was not needed (Bonus Actions), else on accuracy, and aims to weaken (Wounds/Aiming): the plays `escalation_duel`'s tactics report shows strongest; targeting `smart`: the enemy whose hit points are at most what the unit's turn most likely deals (its best weapon's mean damage, plus Strength in melee, times the chance of hitting 10 + Agility 0, a natural 20 doubling, a natural 1 missing, with the Bonus-Action policy's trade: a second attack without Strength for `extra-attack`, before armour), lowest first, else the side's focus, chosen as the weakest. Not done: seeking the square behind a target on a map, or a withdrawal near defeat (a unit that flees is out of the fight; `flee_at` stays the side's)",
        tests: &["smart_settles_a_turns_damage_and_buys_the_extra_attack_with_a_weakening_aim"],
    },
    // ---- Shared axes the text does not have
    Clause {
        section: "(none: the engine's shared axes)",
        rule: "cover (none / half / three-quarters / full)",
        modelled: Modelled::NotModelled,
        how: "the text has no cover rules: the `cover` setting is ignored",
        tests: &[],
    },
    Clause {
        section: "(none: the engine's shared axes)",
        rule: "conditions blinded, deafened, frightened, grappled",
        modelled: Modelled::NotModelled,
        how: "the text does not name them: ignored (prone and the helpless conditions are above)",
        tests: &[],
    },
];
