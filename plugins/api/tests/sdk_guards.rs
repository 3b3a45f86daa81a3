//! What the SDK refuses so that a plugin written without `unsafe` cannot
//! have the host read memory never written. (What it refuses at compile
//! time is in the doc tests of `TableCell` and `reads_states_of`.)

use plyd_api::sdk::MoveSink;

#[test]
fn add_count_counts_where_only_the_count_is_asked() {
    let mut none: [u32; 0] = [];
    let mut sink = MoveSink::new(&mut none);
    assert!(sink.counts_only());
    sink.add_count(7);
    sink.push(3);
    assert_eq!(sink.len(), 8);
}

#[test]
#[should_panic(expected = "push them instead")]
fn add_count_with_room_for_the_moves_panics() {
    // The host would take the count as moves written into its buffer.
    let mut room = [0u32; 8];
    let mut sink = MoveSink::new(&mut room);
    sink.add_count(3);
}
