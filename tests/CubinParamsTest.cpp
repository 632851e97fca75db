// Kernel parameter sizes from a cubin's .nv.info sections (the injection's
// fallback when a launch's CUfunction cannot be had).
#include "CubinParams.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

using graphsafe::inject::readCubinParamSizes;

TEST(CubinParams, ReadsEveryKernelsParameterSizesInOrder) {
  std::ifstream In(std::string(GRAPHSAFE_TESTDATA) + "/runtime/cubin/params.sm_90.cubin",
                   std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(Bytes.empty());
  auto Sizes = readCubinParamSizes(Bytes.data(), Bytes.size());
  ASSERT_EQ(Sizes.size(), 2u);
  // kern(float *, int, Big, const double *): Big is 3 pointers, an int and 20 doubles.
  EXPECT_EQ(Sizes.at("_Z4kernPfi3BigPKd"), (std::vector<size_t>{8, 4, 192, 8}));
  EXPECT_EQ(Sizes.at("_Z5othercsPf"), (std::vector<size_t>{1, 2, 8}));
}

TEST(CubinParams, TruncatedOrForeignDataGivesNothing) {
  std::ifstream In(std::string(GRAPHSAFE_TESTDATA) + "/runtime/cubin/params.sm_90.cubin",
                   std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  for (size_t Cut : {size_t(0), size_t(16), size_t(64), Bytes.size() / 2})
    EXPECT_NO_THROW(readCubinParamSizes(Bytes.data(), Cut)) << Cut;
  EXPECT_TRUE(readCubinParamSizes(Bytes.data(), 16).empty());
  std::string Text = "not an ELF file at all, just text";
  EXPECT_TRUE(readCubinParamSizes(Text.data(), Text.size()).empty());
  EXPECT_TRUE(readCubinParamSizes(nullptr, 100).empty());
}
