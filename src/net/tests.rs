//! The evaluator against the net from scratch: children from their parent, both sum widths.

use super::*;
use crate::game::Game;
use crate::game::isaac::Isaac;

#[test]
fn a_child_evaluated_from_its_parent_is_evaluated_exactly() {
    let net = embedded::for_game::<Isaac>().expect("Isaac's embedded net");
    // Isaac's net sums in `i16`: its weights are at most 111 in size, 163 inputs at most.
    assert!(net.narrow);
    children_evaluated_exactly(&net);
    children_evaluated_exactly(&GameNet {
        narrow: false,
        ..net.clone()
    });
}

#[test]
fn a_net_whose_sums_could_overflow_sums_in_i32() {
    let net = embedded::for_game::<Isaac>().expect("Isaac's embedded net");
    let h = net.net.header.hidden;
    let narrow = |net: &Net| GameNet::<Isaac>::new(Arc::new(net.clone())).is_ok_and(|n| n.narrow);
    let mut big = (*net.net).clone();
    // Every unit cleared, so that what follows does not depend on the built-in net's weights
    // (the other units must fit too for the sums to be narrow).
    big.input_weights.fill(0);
    big.hidden_bias.fill(0);
    // One large weight: 163 of it would overflow, but a position sets an input once.
    big.input_weights[17 * h + 5] = 1000;
    assert!(narrow(&big));
    // 163 weights of 201 reach 32,763 with no bias: four more units of weight fit, five
    // overflow.
    for input in 17..17 + 163 {
        big.input_weights[input * h + 5] = 201;
    }
    assert!(narrow(&big));
    big.input_weights[17 * h + 5] = -205;
    assert!(narrow(&big));
    big.input_weights[17 * h + 5] = -206;
    assert!(!narrow(&big));
    // The bias counts too.
    big.input_weights[17 * h + 5] = 201;
    big.hidden_bias[5] = -4;
    assert!(narrow(&big));
    big.hidden_bias[5] = -5;
    assert!(!narrow(&big));
    big.hidden_bias[5] = i16::MIN;
    assert!(!narrow(&big));
}

/// Every child of some random positions evaluated from its parent by `net` is its
/// evaluation from scratch.
fn children_evaluated_exactly(net: &GameNet<Isaac>) {
    let mut evaluator = NetEvaluator::new(net.clone());
    let (mut told, mut refreshed) = (0, 0);
    for (i, pos) in crate::game::isaac::random_positions(24).iter().enumerate() {
        evaluator.set_parent(pos);
        for (mv, child) in crate::game::isaac::unfinished_children(pos) {
            let (mut added, mut removed) = (Vec::new(), Vec::new());
            if pos.net_feature_delta(mv, 0, &mut added, &mut removed) {
                told += 1;
            } else {
                refreshed += 1;
            }
            let value = evaluator.evaluate_child(pos, mv, &child, 1);
            assert_eq!(value, net.evaluate(&child), "{mv:?} in {}", pos.to_fen());
            // The ply memory the alpha-beta search uses stays right in between.
            if i % 7 == 0 {
                assert_eq!(evaluator.evaluate(&child, 1), value);
            }
        }
    }
    assert!(
        told > 10_000 && refreshed > 1_000,
        "{told} told, {refreshed} not"
    );
}

#[test]
fn a_child_of_another_parent_is_evaluated_from_scratch() {
    let net = embedded::for_game::<Isaac>().expect("Isaac's embedded net");
    let mut evaluator = NetEvaluator::new(net.clone());
    let pos = Isaac::start(&Default::default());
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut child = pos.clone();
    child.play(moves[0]);
    // No parent given yet.
    assert_eq!(
        evaluator.evaluate_child(&pos, moves[0], &child, 1),
        net.evaluate(&child)
    );
}

#[test]
fn difference_counts_the_inputs_in_one_set_only() {
    assert_eq!(difference(&[0b1011, 1], &[0b0110, 1]), 3);
    assert_eq!(difference(&[0, 0], &[1 << 63, 1]), 2);
    assert_eq!(difference(&[5, 7], &[5, 7]), 0);
}
