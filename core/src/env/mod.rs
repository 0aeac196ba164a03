//! The environment for learning agents (twin of `hansa_lab/env/`): the dense action
//! index, the observation vector, and the vector environment that steps many games in one
//! call.

pub mod action_index;
pub mod observation;
pub mod pool;
pub mod vector;
