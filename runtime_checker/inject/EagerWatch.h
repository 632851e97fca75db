// When light mode watches eager kernel launches.
//
// A callback on every eager launch is most of what light mode costs a
// training loop, and a loop repeats itself: the eager kernels that touch
// graph memory in step 1000 are those of step 3. So light mode watches
// launches until a few replays pass with no new (kernel, graph pointers)
// pair, then stops, and looks again for one window at replays 2^k and after
// every new capture or exec. The trace says where it stopped looking
// (`eager_unobserved`), so the engine never calls a write lost across a
// stretch it could not see. Verify mode watches every launch.
#pragma once

namespace graphsafe::inject {

// An eager launch touched graph memory; New when its kernel and pointer set
// were not seen before.
void noteEagerTouch(bool New);

// A replay is about to run (outside any capture).
void noteReplay();

// A capture began or an exec was made or updated: watch again from now.
void watchEagerAgain();

} // namespace graphsafe::inject
