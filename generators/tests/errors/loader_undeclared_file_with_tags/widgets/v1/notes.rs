//! Undeclared too, but without tags: only `-v` lists it.
