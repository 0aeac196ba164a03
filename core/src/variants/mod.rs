//! Rule variants (twin of `hansa_lab/engine/variants/`): the neutral colour of the
//! two-player game and the Emperor's Favour module. East and Britannia (regions,
//! permanent markers) are not in the core yet.
pub mod favour;
pub mod neutral;
