// Upstream's helper.BuildBrokenLinearFunction (plugins/helper/shape_score.go):
// the piecewise-linear score of a utilization percentage through a shape's
// points, used by NodeResourcesFit's RequestedToCapacityRatio and by
// VolumeBinding's capacity scoring.
//
//   BrokenLinearFunction f({{0, 100}, {100, 0}});
//   f(30);  // 70
//
// Below the first point: its score; above the last: the last's; between two
// points: linear, with Go's truncating integer division.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_BROKEN_LINEAR_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_BROKEN_LINEAR_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace schedkit::plugins::internal {

class BrokenLinearFunction {
 public:
  struct Point {
    int64_t utilization = 0;
    int64_t score = 0;
  };
  // `points` sorted by utilization (the args' validation sees to it).
  explicit BrokenLinearFunction(std::vector<Point> points) : points_(std::move(points)) {}

  int64_t operator()(int64_t p) const {
    for (size_t i = 0; i < points_.size(); ++i) {
      if (p <= points_[i].utilization) {
        if (i == 0) return points_[0].score;
        const Point& a = points_[i - 1];
        const Point& b = points_[i];
        return a.score + (b.score - a.score) * (p - a.utilization) / (b.utilization - a.utilization);
      }
    }
    return points_.back().score;
  }

 private:
  std::vector<Point> points_;
};

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_BROKEN_LINEAR_H_
