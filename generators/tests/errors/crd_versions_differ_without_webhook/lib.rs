//! Bad input: a CRD kind whose v1alpha1 and v1 hold different fields, with no conversion webhook:
//! the API server would convert by pruning and lose the difference.

pub mod gadgets;
