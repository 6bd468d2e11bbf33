// The triggers that let a text skip the secret scan (core/secret_formats.hpp)
// are proved, with RE2's own prefilter, to be needed by every format: a text
// holding none of them cannot match any detect or redact pattern.
#include <gtest/gtest.h>
#include <re2/filtered_re2.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/secret_formats.hpp"
#include "toolguard/secret_rules.hpp"

namespace toolguard::detail {
namespace secret_triggers_test {

bool holdsATrigger(const std::string& atom) {
  for (const char* trigger : kSecretTriggers) {
    if (atom.find(trigger) != std::string::npos) return true;
  }
  return false;
}

// The patterns (by index) that pass RE2's prefilter when every atom that
// holds no trigger is present (the most a trigger-free text can offer). A
// pattern RE2 cannot filter at all passes always.
std::vector<int> passingWithoutTriggers(const std::vector<const char*>& patterns) {
  re2::FilteredRE2 filter(1);
  RE2::Options options;
  options.set_log_errors(false);
  for (const char* pattern : patterns) {
    int id = 0;
    EXPECT_EQ(filter.Add(pattern, options, &id), RE2::NoError) << pattern;
  }
  std::vector<std::string> atoms;
  filter.Compile(&atoms);
  std::vector<int> present;
  for (size_t i = 0; i < atoms.size(); ++i) {
    if (!holdsATrigger(atoms[i])) present.push_back(static_cast<int>(i));
  }
  std::vector<int> passing;
  filter.AllPotentials(present, &passing);
  return passing;
}

void expectTriggersNeeded(const std::vector<const char*>& patterns) {
  for (int id : passingWithoutTriggers(patterns)) {
    ADD_FAILURE() << "needs no trigger: " << patterns[static_cast<size_t>(id)];
  }
}

TEST(SecretTriggers, EveryFormatNeedsATrigger) {
  std::vector<const char*> detect, redact;
  for (const SecretFormat& format : kSecretFormats) {
    detect.push_back(format.detect);
    redact.push_back(format.redact);
  }
  expectTriggersNeeded(detect);
  expectTriggersNeeded(redact);
}

TEST(SecretTriggers, TheCheckFailsForAFormatWithoutItsTrigger) {
  // A check that cannot fail proves nothing: a format with no listed trigger.
  EXPECT_EQ(passingWithoutTriggers({R"(\bnpm_[A-Za-z0-9]{36})"}), std::vector<int>{0});
}

// Short secrets and RE2's non-ASCII case folding are not skipped.
TEST(SecretTriggers, ShortSecretsAndFoldedLettersAreStillScanned) {
  EXPECT_EQ(findSecretInText("xoxb-1234567890"), "a Slack token");          // 15 bytes
  EXPECT_EQ(findSecretInText("http://u:p@x.io"), "a URL with a password");  // 15 bytes
  EXPECT_EQ(findSecretInText("a://b:c@"), "a URL with a password");         // 8 bytes
  const std::string long_s =
      std::string("aws_\xC5\xBF") + "ecret_access_key=" + std::string(40, 'A');
  EXPECT_EQ(findSecretInText(long_s), "an AWS secret access key");
}

TEST(SecretTriggers, TextWithoutATriggerIsNotScannedAndSecretsStillAre) {
  EXPECT_FALSE(mayHoldSecret("just an ordinary line of source code, nothing to see"));
  EXPECT_TRUE(mayHoldSecret("export TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"));
  EXPECT_TRUE(mayHoldSecret("Authorization: BASIC dXNlcjpwYXNzd29yZA=="));  // any case
  EXPECT_EQ(findSecretInText("export TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"),
            "a GitHub token");
  EXPECT_EQ(findSecretInText("key AKIAABCDEFGHIJKLMNOP here"), "an AWS access key id");
  EXPECT_EQ(findSecretInText("just an ordinary line of source code, nothing to see"), std::nullopt);
}

// mayHoldSecret is "some trigger occurs in the text with A-Z read as a-z"
// (or it holds a letter RE2 folds to s or k), in one pass. Texts made of
// triggers cut, cased and glued at random, with bytes around them, get the
// same answer as that plain reading.
bool plainlyHoldsATrigger(std::string_view text) {
  if (text.size() < 8) return false;
  if (text.find("\xC5\xBF") != std::string_view::npos ||
      text.find("\xE2\x84\xAA") != std::string_view::npos) {
    return true;
  }
  std::string lower(text);
  for (char& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return holdsATrigger(lower);
}

TEST(SecretTriggers, OnePassFindsWhatAPlainSearchFinds) {
  for (const char* trigger : kSecretTriggers) {
    for (const char* c = trigger; *c != '\0'; ++c) {
      EXPECT_FALSE(*c >= 'A' && *c <= 'Z') << "triggers are lowercase: " << trigger;
    }
  }
  std::mt19937 random(20261202);
  const std::string filler = "ab-_:/ xyzKHS\xC5\xE2\x84\xAA\x00";
  size_t holding = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const int pieces = static_cast<int>(random() % 5);
    for (int p = 0; p < pieces; ++p) {
      for (unsigned n = random() % 4; n > 0; --n) text += filler[random() % filler.size()];
      const std::string trigger = kSecretTriggers[random() % std::size(kSecretTriggers)];
      // Whole, or cut short by a letter or more, or missing its first letter.
      size_t from = random() % 4 == 0 ? 1 : 0;
      size_t to = random() % 3 == 0
                      ? trigger.size() - std::min<size_t>(trigger.size() - 1, 1 + random() % 2)
                      : trigger.size();
      if (from >= to) from = 0;
      for (size_t i = from; i < to; ++i) {
        const char c = trigger[i];
        text += (random() % 2 && c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
      }
    }
    for (unsigned n = random() % 4; n > 0; --n) text += filler[random() % filler.size()];
    const bool expected = plainlyHoldsATrigger(text);
    holding += expected ? 1 : 0;
    ASSERT_EQ(mayHoldSecret(text), expected) << "'" << text << "'";
  }
  // Both answers were met often.
  EXPECT_GT(holding, 2000u);
  EXPECT_LT(holding, 18000u);
}

}  // namespace secret_triggers_test
}  // namespace toolguard::detail
