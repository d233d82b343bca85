//! Bad input: v1 says `+groupName=gizmos.example.dev`, its group module `widgets.example.dev`.

pub mod widgets;
