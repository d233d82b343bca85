//! Bad input: `+genclient:method=GetScale,...,result=Scale` names a type that does not exist.

pub mod widgets;
