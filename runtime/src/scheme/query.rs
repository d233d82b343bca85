//! Query decoding in the scheme: [`Scheme::add_query_decoder`] records how an options kind is read
//! from URL query parameters (generated for `+k8s:conversion-gen:explicit-from=net/url.Values`),
//! so a server decodes `?follow=true&tailLines=10` by the GVK its route serves, as apiserver's
//! ParameterCodec does through the scheme.

use super::Scheme;
use crate::query::{FromQuery, Values};
use crate::{GroupVersionKind, Object, SchemeError};

/// Builds an object from query parameters; instantiated per registered type.
pub(crate) type QueryDecodeFn = fn(&Values) -> Result<Box<dyn Object>, crate::query::QueryError>;

fn decode_as<T: Object + FromQuery>(values: &Values) -> Result<Box<dyn Object>, crate::query::QueryError> {
    Ok(Box::new(T::from_query(values)?))
}

impl Scheme {
    /// Records that objects of `gvk` (registered as `T`) can be decoded from query parameters.
    pub fn add_query_decoder<T: Object + FromQuery>(&mut self, gvk: GroupVersionKind) {
        self.query_decoders.insert(gvk, decode_as::<T>);
    }

    /// The object of `gvk` that query parameters describe, with its apiVersion and kind set.
    pub fn decode_query(&self, gvk: &GroupVersionKind, values: &Values) -> Result<Box<dyn Object>, SchemeError> {
        let decode = self
            .query_decoders
            .get(gvk)
            .ok_or_else(|| SchemeError::NoQueryDecoder(gvk.clone()))?;
        let mut obj = decode(values).map_err(SchemeError::Query)?;
        obj.set_group_version_kind(gvk);
        Ok(obj)
    }
}
