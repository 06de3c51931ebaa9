//===-- flags_test.cpp - HRACE_OPTIONS parsing ----------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_flags.h"

#include "gtest/gtest.h"

#include <string.h>

#include <string>

namespace hrace {
namespace {

// Parses `options` on top of the defaults, as Initialize() does.
class FlagsTest : public ::testing::Test {
protected:
  void SetUp() override { flags.SetDefaults(); }
  bool Parse(const char *options) {
    return ParseFlags(&flags, options, storage, sizeof(storage), error,
                      sizeof(error));
  }

  Flags flags;
  char storage[64];
  char error[512];
};

TEST_F(FlagsTest, DefaultsMatchTheTable) {
  EXPECT_EQ(Msm::kShort, flags.msm);
  EXPECT_EQ(66, flags.exitcode);
  EXPECT_FALSE(flags.halt_on_error);
  EXPECT_STREQ("stderr", flags.log_path);
  EXPECT_TRUE(flags.symbolize);
  EXPECT_STREQ("", flags.external_symbolizer_path);
  EXPECT_EQ(0, flags.verbosity);
  EXPECT_FALSE(flags.help);
}

TEST_F(FlagsTest, ExitCodeForOptionErrorsDiffersFromDefaultExitCode) {
  EXPECT_NE(flags.exitcode, kOptionErrorExitCode);
}

TEST_F(FlagsTest, MsmName) {
  EXPECT_STREQ("short", MsmName(Msm::kShort));
  EXPECT_STREQ("long", MsmName(Msm::kLong));
  EXPECT_STREQ("hb", MsmName(Msm::kHb));
}

TEST_F(FlagsTest, EveryMsmParses) {
  for (Msm m : {Msm::kHb, Msm::kLong, Msm::kShort}) {
    std::string options = std::string("msm=") + MsmName(m);
    ASSERT_TRUE(Parse(options.c_str())) << error;
    EXPECT_EQ(m, flags.msm);
  }
}

TEST_F(FlagsTest, NullAndEmptyOptionsKeepDefaults) {
  EXPECT_TRUE(Parse(nullptr));
  EXPECT_TRUE(Parse(""));
  EXPECT_TRUE(Parse(" : \t"));
  EXPECT_STREQ("", error);
  EXPECT_EQ(66, flags.exitcode);
  EXPECT_STREQ("stderr", flags.log_path);
}

TEST_F(FlagsTest, ColonAndSpaceSeparateOptions) {
  ASSERT_TRUE(Parse("msm=hb:exitcode=3 halt_on_error=1")) << error;
  EXPECT_EQ(Msm::kHb, flags.msm);
  EXPECT_EQ(3, flags.exitcode);
  EXPECT_TRUE(flags.halt_on_error);
  EXPECT_STREQ("", error);
}

TEST_F(FlagsTest, RepeatedSeparatorsAreSkipped) {
  ASSERT_TRUE(Parse("::verbosity=2  \t:exitcode=5:")) << error;
  EXPECT_EQ(2, flags.verbosity);
  EXPECT_EQ(5, flags.exitcode);
}

TEST_F(FlagsTest, LaterOptionWins) {
  ASSERT_TRUE(Parse("exitcode=1:exitcode=7")) << error;
  EXPECT_EQ(7, flags.exitcode);
}

TEST_F(FlagsTest, UnsetOptionsKeepDefaults) {
  ASSERT_TRUE(Parse("verbosity=1")) << error;
  EXPECT_EQ(66, flags.exitcode);
  EXPECT_TRUE(flags.symbolize);
  EXPECT_STREQ("stderr", flags.log_path);
}

TEST_F(FlagsTest, StringValue) {
  ASSERT_TRUE(Parse("log_path=/tmp/report")) << error;
  EXPECT_STREQ("/tmp/report", flags.log_path);
}

TEST_F(FlagsTest, SingleQuotedValueMayContainSeparators) {
  ASSERT_TRUE(Parse("log_path='/tmp/a b:c' exitcode=4")) << error;
  EXPECT_STREQ("/tmp/a b:c", flags.log_path);
  EXPECT_EQ(4, flags.exitcode);
}

TEST_F(FlagsTest, DoubleQuotedValueMayContainSeparators) {
  ASSERT_TRUE(Parse("external_symbolizer_path=\"/opt/my tools/sym\"")) << error;
  EXPECT_STREQ("/opt/my tools/sym", flags.external_symbolizer_path);
}

TEST_F(FlagsTest, EmptyStringValue) {
  ASSERT_TRUE(Parse("external_symbolizer_path='':verbosity=1")) << error;
  EXPECT_STREQ("", flags.external_symbolizer_path);
  EXPECT_EQ(1, flags.verbosity);
}

// An empty prefix would write the reports to a hidden ./.PID file.
TEST_F(FlagsTest, EmptyLogPathIsRejected) {
  EXPECT_FALSE(Parse("log_path=''"));
  EXPECT_STREQ("HybridRace: invalid value '' for option 'log_path' in "
               "HRACE_OPTIONS (accepted: a non-empty string)",
               error);
}

// The exit status keeps 8 bits: 256 would wrap to 0, a passing test.
TEST_F(FlagsTest, ExitCodeIsAnExitStatus) {
  ASSERT_TRUE(Parse("exitcode=255")) << error;
  EXPECT_EQ(255, flags.exitcode);
  ASSERT_TRUE(Parse("exitcode=0")) << error;
  EXPECT_EQ(0, flags.exitcode);
  for (const char *bad : {"exitcode=256", "exitcode=-1"}) {
    EXPECT_FALSE(Parse(bad)) << bad;
    EXPECT_NE(nullptr, strstr(error, "(accepted: an integer from 0 to 255)"))
        << error;
  }
}

TEST_F(FlagsTest, VerbosityIsZeroToTwo) {
  ASSERT_TRUE(Parse("verbosity=2")) << error;
  EXPECT_FALSE(Parse("verbosity=3"));
  EXPECT_STREQ("HybridRace: invalid value '3' for option 'verbosity' in "
               "HRACE_OPTIONS (accepted: an integer from 0 to 2)",
               error);
}

TEST_F(FlagsTest, StringValueOutlivesTheInput) {
  std::string options = "log_path=/tmp/x";
  ASSERT_TRUE(Parse(options.c_str())) << error;
  options.assign(options.size(), 'z');
  EXPECT_STREQ("/tmp/x", flags.log_path);
}

TEST_F(FlagsTest, BoolSpellings) {
  ASSERT_TRUE(Parse("halt_on_error=true:symbolize=false")) << error;
  EXPECT_TRUE(flags.halt_on_error);
  EXPECT_FALSE(flags.symbolize);
  ASSERT_TRUE(Parse("halt_on_error=0:symbolize=1")) << error;
  EXPECT_FALSE(flags.halt_on_error);
  EXPECT_TRUE(flags.symbolize);
}

TEST_F(FlagsTest, IntBeyondInt32IsInvalid) {
  for (const char *bad : {"exitcode=2147483648", "exitcode=-2147483649",
                          "exitcode=99999999999999999999"}) {
    EXPECT_FALSE(Parse(bad)) << bad;
    EXPECT_NE(nullptr, strstr(error, "(accepted: an integer from 0 to 255)"))
        << error;
  }
}

TEST_F(FlagsTest, IntWithTrailingGarbageIsInvalid) {
  EXPECT_FALSE(Parse("verbosity=1x"));
  EXPECT_STREQ("HybridRace: invalid value '1x' for option 'verbosity' in "
               "HRACE_OPTIONS (accepted: an integer from 0 to 2)",
               error);
}

TEST_F(FlagsTest, EmptyIntIsInvalid) {
  EXPECT_FALSE(Parse("exitcode="));
  EXPECT_STREQ("HybridRace: invalid value '' for option 'exitcode' in "
               "HRACE_OPTIONS (accepted: an integer from 0 to 255)",
               error);
}

TEST_F(FlagsTest, BadBoolIsInvalid) {
  EXPECT_FALSE(Parse("halt_on_error=yes"));
  EXPECT_STREQ("HybridRace: invalid value 'yes' for option 'halt_on_error' in "
               "HRACE_OPTIONS (accepted: 0, 1, true, false)",
               error);
}

TEST_F(FlagsTest, BadMsmIsInvalid) {
  EXPECT_FALSE(Parse("msm=x"));
  EXPECT_STREQ("HybridRace: invalid value 'x' for option 'msm' in "
               "HRACE_OPTIONS (accepted: short, long, hb)",
               error);
}

TEST_F(FlagsTest, UnknownOptionNamesKeyAndListsKnownOptions) {
  std::string expected = "HybridRace: unknown option 'bogus' in "
                         "HRACE_OPTIONS (known:";
#define HRACE_FLAG(Type, Name, Default, Help) expected += " " #Name;
#include "hrace_flags.inc"
#undef HRACE_FLAG
  expected += ")";
  EXPECT_FALSE(Parse("exitcode=1:bogus=1"));
  EXPECT_EQ(expected, error);
  EXPECT_NE(std::string::npos, expected.find(" log_path "));
}

TEST_F(FlagsTest, OptionNamesAreCaseSensitive) {
  EXPECT_FALSE(Parse("EXITCODE=1"));
  EXPECT_NE(nullptr, strstr(error, "unknown option 'EXITCODE'")) << error;
}

TEST_F(FlagsTest, MissingEqualsSign) {
  EXPECT_FALSE(Parse("halt_on_error"));
  EXPECT_STREQ("HybridRace: option 'halt_on_error' in HRACE_OPTIONS has no "
               "value (write halt_on_error=VALUE)",
               error);
}

TEST_F(FlagsTest, MissingEqualsSignBeforeSeparator) {
  EXPECT_FALSE(Parse("verbosity=1:symbolize exitcode=2"));
  EXPECT_STREQ("HybridRace: option 'symbolize' in HRACE_OPTIONS has no value "
               "(write symbolize=VALUE)",
               error);
}

TEST_F(FlagsTest, TooLongInput) {
  std::string options = "log_path=" + std::string(sizeof(storage), 'a');
  EXPECT_FALSE(Parse(options.c_str()));
  EXPECT_STREQ("HybridRace: HRACE_OPTIONS is longer than 63 characters", error);
}

TEST_F(FlagsTest, InputThatExactlyFillsStorage) {
  std::string options = "log_path=";
  options.append(sizeof(storage) - 1 - options.size(), 'p');
  ASSERT_TRUE(Parse(options.c_str())) << error;
  EXPECT_EQ(options.substr(9), std::string(flags.log_path));
}

TEST_F(FlagsTest, ErrorIsTruncatedToItsBuffer) {
  char small[16];
  EXPECT_FALSE(ParseFlags(&flags, "msm=x", storage, sizeof(storage), small,
                          sizeof(small)));
  EXPECT_STREQ("HybridRace: inv", small);
}

} // namespace
} // namespace hrace
