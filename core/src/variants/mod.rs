//! Rule variants (twin of `hansa_lab/engine/variants/`): the neutral colour of the
//! two-player game, the Emperor's Favour module, Britannia's countries and permissions
//! (`regions`) and the maritime routes' permanent markers (East, Britannia).
pub mod favour;
pub mod neutral;
pub mod permanent;
pub mod regions;
