//! `named_enum!`: the shared shape of the engine's small vocabularies
//! (cover, conditions, targeting, tactics, initiative schemes): an enum whose
//! variants have the names scenario files use, with `ALL`, `NAMES`, `parse`
//! and `name`, written once.

/// Declare an enum whose variants map one-to-one to names in scenario files.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Names as written in scenario files, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            pub fn parse(name: &str) -> Option<$name> {
                Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
            }

            pub fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }
        }
    };
}

pub(crate) use named_enum;
