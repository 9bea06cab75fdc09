//! Custom rule sets: every field reads back as it is written, every offered value can be set,
//! bad names and values are refused with a message naming them.

use bughouse_core::{DropCheck, PartnerTalk, Preset, PromotionRoles, Role, Rules};

#[test]
fn every_field_of_every_preset_reads_back() {
    for p in Preset::ALL {
        let rules = p.rules();
        let mut copy = Rules::crazyhouse();
        for field in Rules::FIELDS {
            let value = rules.get(field).expect("a known field");
            copy.set(field, &value).unwrap();
        }
        assert_eq!(copy, rules, "{}", p.id());
        assert_eq!(rules.preset(), Some(p));
    }
}

#[test]
fn every_offered_value_can_be_set_and_changes_the_field() {
    for field in Rules::FIELDS {
        let Some(options) = Rules::options(field) else {
            assert!(
                ["repetition_claim", "move_count_claim", "promotion_roles"].contains(&field),
                "{field} has no options"
            );
            continue;
        };
        assert!(options.len() >= 2, "{field}");
        for value in options {
            let mut rules = Rules::fide();
            rules.set(field, value).unwrap();
            assert_eq!(rules.get(field).as_deref(), Some(value), "{field}");
        }
    }
}

#[test]
fn a_custom_set_is_no_preset() {
    let mut rules = Rules::knsb_1988();
    rules.set("drop_check", "Allowed").unwrap();
    rules.set("partner_talk", "anything").unwrap();
    rules.set("repetition_claim", "none").unwrap();
    rules.set("promotion_roles", "qn").unwrap();
    assert_eq!(rules.drop_check, DropCheck::Allowed);
    assert_eq!(rules.partner_talk, PartnerTalk::Anything);
    assert_eq!(rules.repetition_claim, None);
    assert_eq!(
        rules.promotion_roles,
        PromotionRoles::from_roles(&[Role::Queen, Role::Knight])
    );
    assert_eq!(rules.preset(), None);
}

#[test]
fn bad_names_and_values_are_refused_with_what_and_where() {
    let mut rules = Rules::fide();
    let cases = [
        ("drop_checks", "Allowed", "a field name"),
        ("drop_check", "Sometimes", "one of Allowed, Forbidden"),
        ("drops", "yes", "true or false"),
        ("repetition_claim", "1", "none or a whole number from 2"),
        ("move_count_claim", "-5", "none or a whole number from 1"),
        ("promotion_roles", "QK", "Q, R, B, N"),
        ("promotion_roles", "", "Q, R, B, N"),
        ("promotion_roles", "QQ", "Q, R, B, N"),
    ];
    for (field, value, expected) in cases {
        let e = rules.set(field, value).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(field), "{text}");
        assert!(text.contains(&format!("{value:?}")), "{text}");
        assert!(text.contains(expected), "{text}");
    }
    assert_eq!(rules, Rules::fide(), "a refused value changes nothing");
}
