//! Bad input: `+groupName=Widgets_`: a group name is a DNS subdomain.

pub mod widgets;
