//! The text name of an enum value is its serde name, written once: in the
//! enum's `#[serde(rename_all = "kebab-case")]` (or a variant's `rename`).
//! [`serde_name`] reads it back without allocating, so a `name()` method,
//! a CSV cell and the settings' text can never disagree.

use serde::ser::{self, Impossible, Serialize, Serializer};
use std::fmt;

/// The serde name of an enum variant (unit or with fields: `Target::Linear
/// { .. }` is "linear"), as the `&'static str` the derive wrote.
///
/// # Panics
/// For a value that serde does not write as an enum variant: a bug of the
/// caller (every type this is called on is an enum), caught by its tests.
pub fn serde_name<T: Serialize + ?Sized>(value: &T) -> &'static str {
    match value.serialize(VariantName) {
        Ok(name) | Err(Found::Variant(name)) => name,
        Err(Found::NotAVariant) => panic!("serde_name: not an enum variant"),
    }
}

/// The variant's name of a variant with fields (serialization stops there),
/// or a value that is not a variant.
#[derive(Debug)]
enum Found {
    Variant(&'static str),
    NotAVariant,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Found::NotAVariant
    }
}

/// A serializer that answers a variant's name and refuses anything else.
struct VariantName;

macro_rules! not_a_variant {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> Result<&'static str, Found> {
            Err(Found::NotAVariant)
        })*
    };
}

/// A variant whose fields would follow (a tuple or a struct variant): its
/// name is found, and serialization stops there.
macro_rules! found_variant {
    ($($method:ident -> $state:ident),* $(,)?) => {
        $(fn $method(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            _: usize,
        ) -> Result<Self::$state, Found> {
            Err(Found::Variant(variant))
        })*
    };
}

impl Serializer for VariantName {
    type Ok = &'static str;
    type Error = Found;
    type SerializeSeq = Impossible<&'static str, Found>;
    type SerializeTuple = Impossible<&'static str, Found>;
    type SerializeTupleStruct = Impossible<&'static str, Found>;
    type SerializeTupleVariant = Impossible<&'static str, Found>;
    type SerializeMap = Impossible<&'static str, Found>;
    type SerializeStruct = Impossible<&'static str, Found>;
    type SerializeStructVariant = Impossible<&'static str, Found>;

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<&'static str, Found> {
        Ok(variant)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: &T,
    ) -> Result<&'static str, Found> {
        Ok(variant)
    }

    found_variant!(
        serialize_tuple_variant -> SerializeTupleVariant,
        serialize_struct_variant -> SerializeStructVariant,
    );

    not_a_variant!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<&'static str, Found> {
        Err(Found::NotAVariant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, Found> {
        Err(Found::NotAVariant)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Found> {
        Err(Found::NotAVariant)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Found> {
        Err(Found::NotAVariant)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Found> {
        Err(Found::NotAVariant)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Found> {
        Err(Found::NotAVariant)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Found> {
        Err(Found::NotAVariant)
    }
}

#[cfg(test)]
mod tests;

/// `name()` (the serde name) and `Display` (that name, padded as a format's
/// width asks: the CLI's tables) for an enum whose text is a CSV column's: a
/// scenario's methods.
#[macro_export]
macro_rules! serde_named {
    ($ty:ty) => {
        impl $ty {
            /// The text of the CSV's column: the variant's serde name.
            pub fn name(self) -> &'static str {
                $crate::names::serde_name(&self)
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.pad($crate::names::serde_name(self))
            }
        }
    };
}

/// Checks that each value's text (its name, its `Display` and its JSON) is
/// the one stored outputs hold, and that the text reads back as the value.
#[cfg(test)]
pub fn assert_texts<T>(pairs: &[(T, &str)])
where
    T: Serialize + serde::de::DeserializeOwned + fmt::Display + fmt::Debug + PartialEq,
{
    for (value, text) in pairs {
        assert_eq!(serde_name(value), *text);
        assert_eq!(value.to_string(), *text);
        let json = serde_json::to_string(value).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(&serde_json::from_str::<T>(&json).unwrap(), value);
    }
}
