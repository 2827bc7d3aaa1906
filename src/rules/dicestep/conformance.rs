//! `dicestep`'s conformance table: every rule of its source text, how skirmish
//! models it, and the tests in `tests.rs` that pin it. Printed by
//! `skirmish rules dicestep`; checked by `rules::conformance`'s tests.
//!
//! The text is the chapter "Combat" of an unnamed game. Sections are named
//! by its headings; its tables ("Table: Actions", "Table: Reactions",
//! "Table: Free Actions") stand in "Actions in Combat", and "Block" and
//! "Parry" in "Defensive Actions". The last rows cover the shared scenario
//! settings the text has no rule for.

use crate::rules::{Clause, Modelled};

const COMBAT: &str = "Combat";
const OBJECTIVES: &str = "Objectives";
const INITIATIVE: &str = "Initiative and Rounds";
const SURPRISE: &str = "Surprise";
const ACTIONS: &str = "Actions in Combat";
const ACTIONS_TABLE: &str = "Actions in Combat / Table: Actions";
const REACTIONS_TABLE: &str = "Actions in Combat / Table: Reactions";
const FREE_TABLE: &str = "Actions in Combat / Table: Free Actions";
const MOVEMENT: &str = "Movement and Distances";
const ATTACKS: &str = "Attacks";
const BLOCK: &str = "Defensive Actions / Block";
const PARRY: &str = "Defensive Actions / Parry";
const DAMAGE: &str = "Damage";
const DEATH: &str = "Death";
const SETTINGS: &str = "(scenario settings the text has no rule for)";

pub const TABLE: &[Clause] = &[
    // ------------------------------------------------------------ Combat
    Clause {
        section: COMBAT,
        rule: "Teams take turns until one team remains or one completes its objective",
        modelled: Modelled::AsWritten,
        how: "a fight ends when one side has units standing (not unconscious, not dead); objectives: see Objectives",
        tests: &["teams_alternate_and_a_team_out_of_members_lets_the_other_finish", "stat_two_v_one_with_a_stunned_member_against_a_markov_chain"],
    },
    // ------------------------------------------------------------ Objectives
    Clause {
        section: OBJECTIVES,
        rule: "Objectives (the section's body is lost: \"?\")",
        modelled: Modelled::NotModelled,
        how: "nothing to model: every fight is to the last team standing (draw at max_rounds)",
        tests: &[],
    },
    // ------------------------------------------------------------ Initiative
    Clause {
        section: INITIATIVE,
        rule: "The team whose member starts combat has the highest initiative (first); the attacked team next; other teams in the GM's order",
        modelled: Modelled::Abstraction,
        how: "the first listed side started the fight and opens every round, then the others in listed order; under `surprise` the surprising side started it and opens every round (Ruleset::opening_side); the engine's `opening` option names another opening side (second, or drawn each fight) where surprise does not (tests/opening.rs)",
        tests: &["teams_alternate_and_a_team_out_of_members_lets_the_other_finish", "with_surprise_second_the_first_side_never_opens_and_surprised_members_cost_nothing", "stat_surprise_second_the_surprisers_open_every_round"],
    },
    Clause {
        section: INITIATIVE,
        rule: "Each round every participant gets one turn: each team selects one member to take a turn, then passes to the next team, until all members have had one",
        modelled: Modelled::AsWritten,
        how: "team-alternating activation (the default `initiative = \"alternating\"`)",
        tests: &["teams_alternate_and_a_team_out_of_members_lets_the_other_finish"],
    },
    Clause {
        section: INITIATIVE,
        rule: "The team chooses which member goes next, possibly in a different order each round",
        modelled: Modelled::Abstraction,
        how: "a fixed policy: within a team, members go in the order of an initiative test (DEX die + combat die, luck die alongside: +4 on 20; ties to the higher luck roll) rolled once per fight",
        tests: &["individual_initiative_is_dex_plus_combat_with_the_luck_die", "teams_alternate_and_a_team_out_of_members_lets_the_other_finish"],
    },
    Clause {
        section: INITIATIVE,
        rule: "A team out of members lets the remaining teams give all their turns",
        modelled: Modelled::AsWritten,
        how: "a side with nobody left who can act passes; the others finish the round",
        tests: &["teams_alternate_and_a_team_out_of_members_lets_the_other_finish", "a_stunned_or_down_member_never_costs_its_team_an_activation"],
    },
    Clause {
        section: INITIATIVE,
        rule: "A character unable to act (e.g. unconscious) loses the ability to take a turn; when it regains consciousness it takes its turn at the next opportunity",
        modelled: Modelled::AsWritten,
        how: "Ruleset::can_act: not down, not incapacitated/paralyzed/stunned/unconscious, not surprised in the surprise round; such a member never costs its team an activation; one brought back (Resuscitate) before its turn takes it",
        tests: &["a_stunned_or_down_member_never_costs_its_team_an_activation", "stat_two_v_one_with_a_stunned_member_against_a_markov_chain", "resuscitate_spends_two_actions_goes_prone_and_tests_against_missing_health"],
    },
    Clause {
        section: INITIATIVE,
        rule: "A round is about six seconds (ten a minute)",
        modelled: Modelled::NotModelled,
        how: "no rule here depends on seconds; fights are counted in rounds",
        tests: &[],
    },
    Clause {
        section: INITIATIVE,
        rule: "(not in the text) individual initiative schemes",
        modelled: Modelled::Abstraction,
        how: "the engine's `initiative` option: `rolled`/`rerolled` order all units by the initiative test above, `fixed` by DEX die size; the text's scheme is the default `alternating`",
        tests: &["individual_initiative_is_dex_plus_combat_with_the_luck_die"],
    },
    // ------------------------------------------------------------ Surprise
    Clause {
        section: SURPRISE,
        rule: "The team with surprise takes a whole round in which only it takes actions; then normal rounds",
        modelled: Modelled::AsWritten,
        how: "option `surprise` (none/first/second) names the surprising side, a scenario fact: round 1 is its surprise round (\"a whole round\": option surprise_rounds, default 1); surprised members cannot act and cost their team no activation",
        tests: &["surprise_round_only_the_surprising_team_acts_but_the_unsurprisable_do", "with_surprise_second_the_first_side_never_opens_and_surprised_members_cost_nothing", "stat_surprise_second_the_surprisers_open_every_round", "surprise_rounds_2_keeps_the_surprised_out_of_round_2_too"],
    },
    Clause {
        section: SURPRISE,
        rule: "Characters who cannot be surprised act as normal in the surprise round, the teams' initiative compared as normal",
        modelled: Modelled::AsWritten,
        how: "stat `cannot_be_surprised`; the surprise round then alternates as usual, the surprising team opening",
        tests: &["surprise_round_only_the_surprising_team_acts_but_the_unsurprisable_do", "a_stunned_or_down_member_never_costs_its_team_an_activation"],
    },
    Clause {
        section: SURPRISE,
        rule: "Only the surprising team takes actions (reactions are not actions)",
        modelled: Modelled::AsWritten,
        how: "surprised units keep their reaction (dodge, parry, block, fortify) in the surprise round; their lost turn does not recover it",
        tests: &["surprised_units_still_react"],
    },
    Clause {
        section: SURPRISE,
        rule: "Surprised members do not act: a Command cannot give one an action",
        modelled: Modelled::AsWritten,
        how: "Command picks only an ally who can act (Ruleset::can_act)",
        tests: &["command_never_gives_a_surprised_ally_an_action"],
    },
    // ------------------------------------------------------------ Actions in Combat
    Clause {
        section: ACTIONS,
        rule: "Three actions a turn; one reaction a round, recovered at the start of each turn",
        modelled: Modelled::AsWritten,
        how: "a budget of three actions per turn (option actions_per_turn, default 3; resuscitate_actions and killing_strike_actions may not exceed it: refused); the reactions are reset to 1 when the unit's turn starts (option reactions_per_round, default 1; a unit that cannot act has no turn and recovers nothing). The \"six seconds\" and \"two seconds\" an action lasts are not numbers of the fight (no rule reads time)",
        tests: &["a_turn_is_three_actions_move_then_attacks_guard_and_wait", "dodge_is_a_test_against_the_attack_result_for_1_stamina_and_the_reaction", "surprised_units_still_react", "actions_per_turn_sets_the_turns_budget", "reactions_per_round_sets_the_reactions_a_turn_recovers", "an_action_cost_above_a_turns_actions_is_refused"],
    },
    Clause {
        section: ACTIONS,
        rule: "Actions longer than the actions left (e.g. a 2-action reload) are paid from later turns; the effect comes when all is paid",
        modelled: Modelled::AsWritten,
        how: "weapon `reload = N`: the actions owed are paid first thing next turn, then the weapon is loaded",
        tests: &["crossbow_reload_spans_turns_around_seek_cover"],
    },
    Clause {
        section: ACTIONS,
        rule: "A started extended action may be abandoned at no cost",
        modelled: Modelled::Abstraction,
        how: "policy: units never abandon a reload",
        tests: &["crossbow_reload_spans_turns_around_seek_cover"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Attack: make an attack with an item or weapon",
        modelled: Modelled::AsWritten,
        how: "policy `attacks` (most attacks a turn, default 3); see Attacks",
        tests: &["a_turn_is_three_actions_move_then_attacks_guard_and_wait"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Brandish: choose what items you are holding in your hands",
        modelled: Modelled::AsWritten,
        how: "one weapon in hand at a time (its shield, if any, always held; hands are not counted): the first listed at the start; attacking or reloading with another costs a Brandish action first",
        tests: &["brandish_costs_an_action_to_change_the_weapon_in_hand", "parry_uses_a_wielded_item_of_any_kind"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Command: once per turn per target, 2 focus: an ally takes one action during your turn",
        modelled: Modelled::AsWritten,
        how: "policy `command`: after its first attack of a turn, an action and 2 focus (option command_focus, default 2) give an ally that can act and has not attacked this round one action (option command_actions, default 1). \"Once per turn per target\" stays a constant: it is a count of targets, which the ally's one turn of actions already bounds",
        tests: &["command_gives_an_ally_an_action_for_2_focus", "command_never_gives_a_surprised_ally_an_action", "command_focus_and_command_actions_set_commands_price_and_gift"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Interact: use an object such as doors and inventory items",
        modelled: Modelled::NotModelled,
        how: "no objects on the front",
        tests: &[],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Guard: end your turn; +1 to all defences and defence tests until next turn",
        modelled: Modelled::AsWritten,
        how: "policy `leftover = \"guard\"` (default): +1 evasion, +1 damage reduction, +1 to dodge and fortify tests until its next turn (option guard_bonus, default 1)",
        tests: &["guard_adds_1_to_evasion_deflection_and_defence_tests", "a_turn_is_three_actions_move_then_attacks_guard_and_wait", "guard_bonus_sets_what_guard_adds_to_defences_and_defence_tests"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Move: once per turn, up to your speed",
        modelled: Modelled::AsWritten,
        how: "stat `speed` (default 6 m: the text's value is lost) along the front; \"once per turn\" stays a constant: Sprint is the text's own way to move again",
        tests: &["a_turn_is_three_actions_move_then_attacks_guard_and_wait", "step_is_a_free_1m_move_instead_of_a_move_action"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Ready an Action: end your turn declaring a triggered reaction",
        modelled: Modelled::NotModelled,
        how: "no trigger policy; units attack on their own turn instead",
        tests: &[],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Resuscitate (two actions): go prone, then make a test to return someone to consciousness",
        modelled: Modelled::Option("resuscitate_difficulty"),
        how: "policy `resuscitate` (default on): an unconscious, not dead ally within 1 m, at any health (0 included); the rescuer goes prone; STR die + athletics die (+ luck) against a difficulty the text does not give: 0 (default) = the patient's missing health, as for fortifying; else that fixed number. Success clears the patient's unconsciousness, and it was never laid prone (see Damage), so it takes its turn on its feet. The two actions: option resuscitate_actions, default 2",
        tests: &["resuscitate_spends_two_actions_goes_prone_and_tests_against_missing_health", "resuscitate_brings_back_an_ally_at_zero_health", "a_knocked_out_unit_is_not_laid_prone_and_comes_back_on_its_feet", "resuscitate_actions_sets_what_a_rescue_costs"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Seek Cover: ranged attackers have disadvantage while you are behind cover until your next turn",
        modelled: Modelled::AsWritten,
        how: "policy `seek_cover`: a unit with cover keeps its last action for it; ranged attacks on it then have one level of disadvantage (a level, not a number: how a level counts is the `advantage` option). On a map (`[map]`) cover is the terrain's: a unit can seek cover only where something covers it from an enemy in the fight (a low wall `-`, high cover `=` or a wall `#` next to it on the line from that enemy, or a trench `_` it stands in: `map::cover_between` with near = 1, checked where it stands when it spends the action), and \"while behind cover\" is read per attacker: a ranged attack has the disadvantage only when that cover lies between its attacker and the unit",
        tests: &["crossbow_reload_spans_turns_around_seek_cover", "flanking_sneak_and_prone_give_advantage_levels", "seek_cover_needs_cover_on_the_map_and_faces_where_it_is"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Short Task (three actions): a short task that requires a test",
        modelled: Modelled::NotModelled,
        how: "no tasks in a fight; the killing strike's three-action \"activity\" is modelled (Death)",
        tests: &[],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Sprint: if you have already moved this turn, 1 stamina for another move action",
        modelled: Modelled::AsWritten,
        how: "policy `sprint`: after its Move, while its target is out of reach, as often as actions and stamina (above `stamina_reserve`) allow, unless the last move got nowhere (on a map, its way blocked: a Sprint would spend stamina standing still); 1 stamina each (option sprint_stamina, default 1)",
        tests: &["sprint_costs_stamina_follows_a_move_and_may_repeat", "sprint_stamina_sets_what_a_sprint_costs", "a_unit_whose_way_is_blocked_does_not_sprint_in_place"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Stand Up: get up from being prone",
        modelled: Modelled::AsWritten,
        how: "an action, taken before moving or at the start of the turn (unless the unit stays down by its `drop_prone` policy)",
        tests: &["drop_prone_is_free_and_stand_up_costs_an_action"],
    },
    Clause {
        section: ACTIONS_TABLE,
        rule: "Wait: end your turn; an extra reaction until next turn",
        modelled: Modelled::AsWritten,
        how: "policy `leftover = \"wait\"`; one extra reaction (option wait_reactions, default 1)",
        tests: &["a_turn_is_three_actions_move_then_attacks_guard_and_wait", "wait_reactions_sets_the_extra_reactions_of_wait"],
    },
    Clause {
        section: REACTIONS_TABLE,
        rule: "Dodge: 1 stamina, a test to avoid an attack",
        modelled: Modelled::Option("dodge_difficulty"),
        how: "policy `reaction = \"dodge\"`: DEX die + athletics die (+ luck, + guard_bonus guarding) against a difficulty the text does not give: 0 (default) = the attack's test result, else that number; success avoids the attack, critical hits included. The 1 stamina: option dodge_stamina, default 1",
        tests: &["dodge_is_a_test_against_the_attack_result_for_1_stamina_and_the_reaction", "dodge_parry_and_block_stamina_set_what_each_reaction_costs"],
    },
    Clause {
        section: REACTIONS_TABLE,
        rule: "When Dodge and Parry are chosen (only Block is allowed to wait: \"You may decide to block after you would get hit\")",
        modelled: Modelled::Option("declare_reactions"),
        how: "`before-roll` (default): chosen and paid as the attack is declared, so a miss wastes them; a misfire's new target had none declared; `after-hit`: chosen once the attack is known to hit, by whoever it hits, a misfire's new target included (the text finishes a misfired attack \"as normal\" and forbids its new target nothing)",
        tests: &["dodge_and_parry_are_declared_before_the_roll_and_spent_on_a_miss", "a_misfire_finds_its_new_target_without_a_declared_defence", "stat_dodge_declared_before_the_roll_over_two_rounds", "after_hit_a_misfires_new_target_may_still_dodge"],
    },
    Clause {
        section: REACTIONS_TABLE,
        rule: "Fortify: 1 stamina, a test to prevent a physical effect",
        modelled: Modelled::AsWritten,
        how: "the only physical effect in the text is the knock-out (see Damage)",
        tests: &["the_texts_boudica_endurance_then_health_fortify_then_death"],
    },
    Clause {
        section: REACTIONS_TABLE,
        rule: "Intercept: 1 stamina, move and displace an ally, replacing it as the target; then any defensive action as a free reaction",
        modelled: Modelled::Abstraction,
        how: "policy `intercept`: a bodyguard within its speed of an attacked ally with less endurance + health left moves to its place and becomes the target (option intercept_stamina, default 1); its own defence is then a free reaction (still paying that defence's stamina). On a map \"displace an ally\" is a swap: the bodyguard takes the ally's square and the ally the bodyguard's (\"within its speed\" is measured by the alternating metric, not along a path)",
        tests: &["intercept_takes_an_allys_hit_and_defends_for_free", "intercept_stamina_sets_what_an_intercept_costs", "an_intercept_swaps_squares_with_the_ally_it_displaces"],
    },
    Clause {
        section: REACTIONS_TABLE,
        rule: "Resist: 1 focus, a test to prevent a mental effect",
        modelled: Modelled::NotModelled,
        how: "the text has no mental effects",
        tests: &[],
    },
    Clause {
        section: FREE_TABLE,
        rule: "Drop Item: drop a held item",
        modelled: Modelled::NotModelled,
        how: "nothing gained by it here: changing weapons is a Brandish either way",
        tests: &[],
    },
    Clause {
        section: FREE_TABLE,
        rule: "Drop Prone: ranged attackers get disadvantage, melee attackers advantage",
        modelled: Modelled::AsWritten,
        how: "policy `drop_prone`: a unit that holds or keeps range with no enemy within `reach` (1 m) drops prone (free) and stays down; the advantage and disadvantage are levels, not numbers",
        tests: &["drop_prone_is_free_and_stand_up_costs_an_action", "flanking_sneak_and_prone_give_advantage_levels"],
    },
    Clause {
        section: FREE_TABLE,
        rule: "Step: once per turn, a 1 m step instead of a move action",
        modelled: Modelled::AsWritten,
        how: "an advancing unit 1 m short of reach steps (free) instead of moving (option step_distance, default 1; 0: no Step); policy: units that keep range back off with a Move. On a map the Step is one square (1 m) along the path to the target; a target out of sight is approached with a Move instead",
        tests: &["step_is_a_free_1m_move_instead_of_a_move_action", "step_distance_sets_how_far_the_free_step_goes", "the_step_is_1m_and_a_double_diagonal_needs_a_move"],
    },
    // ------------------------------------------------------------ Movement and Distances
    Clause {
        section: MOVEMENT,
        rule: "Movement and distances (the body is lost: \"?\")",
        modelled: Modelled::Abstraction,
        how: "a one-dimensional front in metres: melee reaches 1 m and \"adjacent\" (flanking, resuscitating, dropping prone, backing off) is |Δposition| ≤ 1 (option reach, default 1; a weapon's own `range` wins), `speed` defaults to 6 m. On a map (`[map]`, a square is 1 m) distances are metres by the alternating metric (see the diagonal rule), so \"within 1 m\" is the eight neighbours; units move square by square along cheapest paths (difficult ground `~` doubles a step: a designer's drawing, the text has none), around walls, through allies but not enemies, onto free squares; attacks need a line of sight (a symmetric grid line; walls `#` cut it), and a shooter closes to where it sees its target",
        tests: &["a_turn_is_three_actions_move_then_attacks_guard_and_wait", "reach_sets_melee_reach_and_adjacency", "distances_are_metres_and_every_second_diagonal_is_2m", "a_wall_blocks_a_shot_and_the_archer_moves_to_see"],
    },
    Clause {
        section: MOVEMENT,
        rule: "On a square grid every second diagonal space is 2 m",
        modelled: Modelled::AsWritten,
        how: "on a map (`[map]`): a path's diagonals cost 1, 2, 1, 2 … m (the parity is tracked along each move, fresh for each Move, Sprint or Step), and the distance between two squares is the longer side plus half the shorter (three diagonals: 4 m); without a map there is no grid and no diagonal",
        tests: &["distances_are_metres_and_every_second_diagonal_is_2m", "the_step_is_1m_and_a_double_diagonal_needs_a_move"],
    },
    // ------------------------------------------------------------ Attacks
    Clause {
        section: ATTACKS,
        rule: "An attack test is the weapon's attribute die + combat skill die + relevant proficiency against the target's evasion; hit on ≥",
        modelled: Modelled::AsWritten,
        how: "weapon `attribute` (str, dex, or either = the bigger die); `proficiency` is one flat value per unit",
        tests: &["attack_is_attribute_plus_combat_plus_proficiency_vs_evasion", "stat_two_v_one_with_a_stunned_member_against_a_markov_chain"],
    },
    Clause {
        section: ATTACKS,
        rule: "Damage = test result + weapon damage − the target's matching damage reduction, at least 1; endurance first, then health",
        modelled: Modelled::AsWritten,
        how: "see Damage for the types; the minimum: option min_damage, default 1 (also after a parry and for a block's overflow reduced by `block_overflow`)",
        tests: &["attack_is_attribute_plus_combat_plus_proficiency_vs_evasion", "damage_is_at_least_1_and_matched_to_its_type", "min_damage_sets_the_least_a_hit_deals"],
    },
    Clause {
        section: ATTACKS,
        rule: "Luck die: a normal test adds +4 on 20 or more; on an attack, a luck roll ≥ the weapon's critical threshold cannot miss and uses critical damage",
        modelled: Modelled::AsWritten,
        how: "the +4: option luck_bonus, default 4; the 20: option luck_bonus_on, default 20 (initiative tests too; not checked against `luck_die`, since a unit's luck modifier can reach past the die); weapon `crit` (default 20: each weapon states its own, so the threshold is a weapon field, not an option), `crit_damage` (default twice `damage`); the unit's `luck` modifier is added to its luck rolls",
        tests: &["luck_of_20_adds_4_to_normal_tests_but_not_to_attacks", "luck_at_the_crit_threshold_cannot_miss_and_uses_critical_damage", "luck_bonus_on_and_luck_bonus_set_the_luck_dies_bonus"],
    },
    Clause {
        section: ATTACKS,
        rule: "The size of the luck die (never stated; rolls of 19, 20, \"20 or greater\" imply a d20)",
        modelled: Modelled::Option("luck_die"),
        how: "default 20; any other size by the option",
        tests: &["individual_initiative_is_dex_plus_combat_with_the_luck_die", "p_hit_of_2d6_plus_1_vs_evasion_6_with_the_luck_die"],
    },
    Clause {
        section: ATTACKS,
        rule: "A thrown or projectile attack at a target within 1 m of other characters goes to one of them at random on a luck roll of 1 or less",
        modelled: Modelled::AsWritten,
        how: "any character within 1 m of the target (option misfire_radius, default 1), ally or enemy, unconscious included, not the attacker and not the dead, on a luck roll at most 1 (option misfire_on, default 1; refused at or above the luck die's top, where every shot would misfire); the attack resolves against it \"as normal\": a Block, or under `declare_reactions = \"after-hit\"` a Dodge or Parry, by the new target. On a map \"within 1 m\" is geometric: the characters within misfire_radius metres of the target's square by the alternating metric (at 1 m: its eight neighbours)",
        tests: &["a_misfire_goes_to_a_character_within_1m_of_the_target_on_the_map", "a_luck_1_projectile_goes_to_a_random_unit_next_to_the_target", "a_misfire_finds_its_new_target_without_a_declared_defence", "after_hit_a_misfires_new_target_may_still_dodge", "misfire_on_and_misfire_radius_set_when_and_where_a_shot_strays", "a_misfire_threshold_at_the_luck_dies_top_is_refused"],
    },
    Clause {
        section: ATTACKS,
        rule: "Multiple attack penalty: −2 per attack made before it in the same round (maneuvers too)",
        modelled: Modelled::AsWritten,
        how: "per attacker and round, commanded attacks included (option multiple_attack_penalty, default 2)",
        tests: &["multiple_attack_penalty_is_two_per_earlier_attack_this_round", "stat_dodge_declared_before_the_roll_over_two_rounds", "multiple_attack_penalty_sets_the_penalty_per_earlier_attack"],
    },
    Clause {
        section: ATTACKS,
        rule: "Sneak attack: advantage against enemies who cannot see you",
        modelled: Modelled::Abstraction,
        how: "a target that is blinded or unconscious cannot see its attacker (no line of sight on the front). On a map too, and only so: line of sight is symmetric and every attack needs it, so an attacker its target cannot see could not see the target either; units have no facing, so \"sneaks up behind an enemy\" has nothing to read (not modelled until units face a way)",
        tests: &["flanking_sneak_and_prone_give_advantage_levels", "killing_strike_kills_on_a_test_against_constitution_or_becomes_an_attack"],
    },
    Clause {
        section: ATTACKS,
        rule: "Flanking: advantage against a target surrounded on two opposite sides, for any attacker",
        modelled: Modelled::Option("flanking"),
        how: "`opposite-sides` (default): enemies of the target within 1 m on both sides of its place along the front (one below, one above; one at its very place may take either side); `any-two`: any two enemies within 1 m. On a map it is geometric and the option is refused: two enemies of the target, standing (not unconscious), within `reach` (1 m: neighbours) on opposite sides of it (north and south, east and west, or opposite corners: `map::opposite_sides`); any attacker then has advantage, one outside the flank included",
        tests: &["flanking_needs_enemies_on_opposite_sides_of_the_target", "stat_two_v_one_with_a_stunned_member_against_a_markov_chain", "flanking_on_a_map_is_two_enemies_on_opposite_sides", "flanking_as_an_option_is_refused_on_a_map"],
    },
    Clause {
        section: ATTACKS,
        rule: "Advantage and double advantage (sneak + flanking); the mechanic is not defined",
        modelled: Modelled::Option("advantage"),
        how: "levels add up and cancel (prone, Seek Cover), within ±2 (the text's \"double advantage\" is the most it names; a count of levels, kept constant); `per-die` (default): each die of the pair rolled once more per level, best kept (worst for disadvantage); `whole-test`: the pair rerolled, best total; `flat`: ±2 per level",
        tests: &["flanking_sneak_and_prone_give_advantage_levels", "advantage_options_whole_test_and_flat"],
    },
    Clause {
        section: ATTACKS,
        rule: "Size difference: a larger attacker treats the target's evasion as higher and deflection as lower by the difference; a smaller one the reverse",
        modelled: Modelled::AsWritten,
        how: "stat `size`; both damage reductions shift, never below 0; by the difference times 1 (options size_evasion and size_deflection, default 1 each)",
        tests: &["size_difference_shifts_evasion_and_deflection", "size_evasion_and_size_deflection_set_what_a_size_step_shifts"],
    },
    // ------------------------------------------------------------ Defensive Actions
    Clause {
        section: BLOCK,
        rule: "Block: a wielded item with the block property is hit instead: damage − block value (at least 1) to its durability; may be decided after the hit, before damage",
        modelled: Modelled::AsWritten,
        how: "policy `reaction = \"block\"` with a `shield` (its block value): chosen once the hit is known; 1 stamina (option block_stamina, default 1); the item takes at least 1 (option block_min_damage, default 1)",
        tests: &["block_puts_the_hit_on_the_shield_and_overflow_on_the_unit", "dodge_parry_and_block_stamina_set_what_each_reaction_costs", "block_min_damage_sets_the_least_a_blocking_item_takes"],
    },
    Clause {
        section: BLOCK,
        rule: "Damage past the item's durability is dealt \"directly\" to you as from a successful hit",
        modelled: Modelled::Option("block_overflow"),
        how: "`direct` (default): the excess as it is; `reduced`: through the unit's damage reduction, at least 1",
        tests: &["block_puts_the_hit_on_the_shield_and_overflow_on_the_unit"],
    },
    Clause {
        section: BLOCK,
        rule: "Effects of being hit go to the blocking item (or to you on overflow)",
        modelled: Modelled::NotModelled,
        how: "no weapon here has on-hit effects",
        tests: &[],
    },
    Clause {
        section: PARRY,
        rule: "Parry: a wielded item adds its parry value (1 if none) to your physical defense; the item then takes 1 durability damage",
        modelled: Modelled::AsWritten,
        how: "policy `reaction = \"parry\"`, against physical damage: the weapon in hand (any kind) or the shield, the better parry; added to deflection. The 1 stamina: option parry_stamina, default 1; the unlisted +1: option parry_default, default 1; the 1 durability: option parry_wear, default 1",
        tests: &["parry_adds_the_parry_value_and_wears_the_item", "parry_uses_a_wielded_item_of_any_kind", "dodge_parry_and_block_stamina_set_what_each_reaction_costs", "parry_default_and_parry_wear_set_an_unlisted_parry_and_its_cost"],
    },
    Clause {
        section: PARRY,
        rule: "Unlisted durability: metal 10, otherwise 4; broken items (0) cannot block or parry",
        modelled: Modelled::AsWritten,
        how: "`durability`/`metal` per weapon, `shield_durability`/`shield_metal`; the unlisted 10 and 4: options metal_durability (default 10) and other_durability (default 4); broken stays 0 (the bottom of the track, no option)",
        tests: &["parry_adds_the_parry_value_and_wears_the_item", "block_puts_the_hit_on_the_shield_and_overflow_on_the_unit", "metal_and_other_durability_set_unlisted_durability"],
    },
    // ------------------------------------------------------------ Damage
    Clause {
        section: DAMAGE,
        rule: "Damage types: physical, elemental, typeless (unspecified or psychic); only physical and elemental are reduced",
        modelled: Modelled::AsWritten,
        how: "physical by `deflection`, elemental by `elemental_dr`, typeless not at all",
        tests: &["damage_is_at_least_1_and_matched_to_its_type"],
    },
    Clause {
        section: DAMAGE,
        rule: "Endurance first, then health; harmed at half endurance or less, bloodied below full health",
        modelled: Modelled::AsWritten,
        how: "harmed and bloodied have no effect in the text: counted only (so \"half of their endurance\" stays a constant: no rule of the fight reads it, and an option would only redefine a counter)",
        tests: &["the_texts_boudica_endurance_then_health_fortify_then_death"],
    },
    Clause {
        section: DAMAGE,
        rule: "Losing health with missing health above constitution: fall unconscious or fortify (still a reaction) against the missing health",
        modelled: Modelled::Option("fortify_is_reaction"),
        how: "policy `fortify`: STR die + athletics die + `fortitude` (+ luck, + guard_bonus guarding); `fortify_is_reaction = true` (default, as written) needs the unit's reaction; `fortify_stamina` (default 1, the example's). The text states no number here (missing health against the unit's own constitution)",
        tests: &["the_texts_boudica_endurance_then_health_fortify_then_death", "knock_out_without_a_successful_fortify"],
    },
    Clause {
        section: DAMAGE,
        rule: "Falling unconscious (\"become unconscious\"; at zero health \"they immediately become unconscious\") says nothing of prone: prone comes only from Drop Prone and, for the rescuer, Resuscitate",
        modelled: Modelled::Option("knock_out_prone"),
        how: "`false` (default): an unconscious unit is not prone (attacks on it have advantage as sneak attacks only) and one resuscitated takes its turn on its feet, with all three actions; `true`: it is laid prone too, so until it spends an action to Stand Up melee attacks on it have advantage and ranged ones disadvantage",
        tests: &["a_knocked_out_unit_is_not_laid_prone_and_comes_back_on_its_feet", "stat_a_revived_fighter_stands_against_a_markov_chain", "killing_strike_kills_on_a_test_against_constitution_or_becomes_an_attack"],
    },
    // ------------------------------------------------------------ Death
    Clause {
        section: DEATH,
        rule: "Zero health: unconscious; damage past the remaining health risks death: a luck test ≥ 10 or die, the difficulty +5 on each success",
        modelled: Modelled::AsWritten,
        how: "options `cheat_death` (10) and `cheat_death_step` (5); the unit's difficulty lasts the fight; zero health as the knock-out point stays a constant (the bottom of the track)",
        tests: &["the_texts_boudica_endurance_then_health_fortify_then_death", "cheating_death_raises_the_difficulty_by_5_and_nonlethal_spares", "p_cheat_death_with_luck_d20_is_11_in_20"],
    },
    Clause {
        section: DEATH,
        rule: "A nonlethal source does not risk death on the overkill; any damage at zero health does",
        modelled: Modelled::AsWritten,
        how: "weapon `lethal = false`",
        tests: &["cheating_death_raises_the_difficulty_by_5_and_nonlethal_spares"],
    },
    Clause {
        section: DEATH,
        rule: "Killing strike on an unconscious character (\"any nonlethal weapon\"): three actions, a test with advantage using the combat skill against constitution; failure makes a sneak attack instead",
        modelled: Modelled::AsWritten,
        how: "policy `killing_strike` (default off): with three actions left (option killing_strike_actions, default 3, at most actions_per_turn), the weapon in hand reaching; its attribute die + combat die + proficiency (+ luck), one level of advantage (a level, not a number); \"any nonlethal weapon\" read as any weapon, nonlethal ones included",
        tests: &["killing_strike_kills_on_a_test_against_constitution_or_becomes_an_attack", "killing_strike_actions_sets_what_a_killing_strike_costs", "an_action_cost_above_a_turns_actions_is_refused"],
    },
    Clause {
        section: DEATH,
        rule: "Damage to unconscious characters (implied: \"any more damage taken while at zero health\")",
        modelled: Modelled::Abstraction,
        how: "policy: attackers target only standing enemies; unconscious ones are hurt by killing strikes and misfires",
        tests: &["a_misfire_finds_its_new_target_without_a_declared_defence", "killing_strike_kills_on_a_test_against_constitution_or_becomes_an_attack"],
    },
    // ------------------------------------------------------------ settings
    Clause {
        section: SETTINGS,
        rule: "The shared `cover` setting of a unit group",
        modelled: Modelled::Abstraction,
        how: "the text has no graded cover: any level other than `none` lets the unit Seek Cover; the levels do not differ. On a map `cover` on a group is refused: cover is drawn (see Seek Cover)",
        tests: &["crossbow_reload_spans_turns_around_seek_cover", "flanking_sneak_and_prone_give_advantage_levels", "seek_cover_needs_cover_on_the_map_and_faces_where_it_is"],
    },
    Clause {
        section: SETTINGS,
        rule: "Starting conditions: blinded, prone, incapacitated, paralyzed, stunned, unconscious",
        modelled: Modelled::Abstraction,
        how: "blinded: attacks on it are sneak attacks; prone: as Drop Prone; incapacitated/paralyzed/stunned/unconscious: no actions or reactions (unconscious: out of the fight)",
        tests: &["unconscious_and_incapacitated_units_do_nothing", "a_stunned_or_down_member_never_costs_its_team_an_activation"],
    },
    Clause {
        section: SETTINGS,
        rule: "Starting conditions: deafened, frightened, grappled, restrained",
        modelled: Modelled::NotModelled,
        how: "the text has no such conditions: they have no effect",
        tests: &[],
    },
    Clause {
        section: SETTINGS,
        rule: "Tactics and targeting",
        modelled: Modelled::Abstraction,
        how: "the players' choices as fixed policies: advance (move, step, sprint, attack), hold, keep-range; the engine's targeting policies. On a map: nearest by path, advancing units spread over the free squares next to their target, keep-range units back off away from the nearest enemy",
        tests: &["a_turn_is_three_actions_move_then_attacks_guard_and_wait", "step_is_a_free_1m_move_instead_of_a_move_action"],
    },
    Clause {
        section: SETTINGS,
        rule: "`tactic = \"smart\"`: a strong baseline built on the actions the text offers (issue 30)",
        modelled: Modelled::Abstraction,
        how: "a policy, not a rule: a unit with a thrown or projectile weapon keeps its range and keeps its last action for Seek Cover when it has cover (Table: Actions; on a map, terrain between it and an enemy); a melee-only unit advances; targeting `smart`: the enemy whose endurance + health is at most what the unit's `attacks` deal with its best weapon (mean test result, −2 per attack made, plus the weapon's damage, before reductions), lowest first, else the side's focus, chosen as the weakest. Not done: Guard or a withdrawal near defeat (Guard ends the turn for +1 to defences, which the fixed policies already offer as `leftover`)",
        tests: &["smart_settles_a_turns_damage_and_seeks_cover_with_a_bow"],
    },
];
