//! Bad input: `+genclient:method=ApplyPhase,verb=apply,input=WidgetPhase` sends a string enum, which has no apply configuration.

pub mod widgets;
