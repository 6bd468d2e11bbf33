// Build-time tool: writes the C++ file that holds each policy profile
// (policies/*.yaml) twice: its text, for showing and exporting, and its
// document tree in the compact form of encodeDocNode, which is what loading a
// profile reads (so no process parses the built-in YAML).
//
// Usage: toolguard_embed_profiles OUTPUT PROFILE.yaml...
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "policy/doc_node_yaml.hpp"
#include "toolguard/policy_error.hpp"

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string bytesLiteral(const std::string& bytes) {
  std::string out;
  char hex[8];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(hex, sizeof hex, "0x%02x,", static_cast<unsigned char>(bytes[i]));
    out += (i % 16 == 0) ? "\n    " : " ";
    out += hex;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: toolguard_embed_profiles OUTPUT PROFILE.yaml...\n";
    return 2;
  }
  try {
    std::string body =
        "// Generated from policies/*.yaml by tools/embed_profiles.cpp. Do not edit.\n"
        "#include \"policy/embedded_profiles.hpp\"\n\nnamespace toolguard::detail {\nnamespace "
        "{\n\n";
    std::string table;
    for (int i = 2; i < argc; ++i) {
      const fs::path file = argv[i];
      const std::string name = file.stem().string();
      const std::string text = readFile(file);
      if (text.find(")tgpolicy\"") != std::string::npos) {
        throw std::runtime_error(file.string() + " contains the raw-string delimiter )tgpolicy\"");
      }
      const std::string tree = toolguard::detail::encodeDocNode(
          toolguard::detail::parseYamlDocument(text, "<profile:" + name + ">"));
      const std::string id = "k" + std::to_string(i - 2);
      body += "const unsigned char " + id + "Tree[] = {" + bytesLiteral(tree) + "\n};\n\n";
      table += "    {\"" + name + "\", R\"tgpolicy(" + text + ")tgpolicy\", " + id + "Tree, " +
               std::to_string(tree.size()) + "},\n";
    }
    body += "}  // namespace\n\nconst EmbeddedProfile kEmbeddedProfiles[] = {\n" + table +
            "};\n\nconst size_t kEmbeddedProfileCount = " + std::to_string(argc - 2) +
            ";\n\n}  // namespace toolguard::detail\n";
    const fs::path output = argv[1];
    const fs::path temporary = output.string() + ".tmp";
    std::ofstream(temporary, std::ios::binary) << body;
    if (!fs::exists(output) || readFile(output) != body) fs::rename(temporary, output);
    fs::remove(temporary);
  } catch (const std::exception& e) {
    std::cerr << "toolguard_embed_profiles: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
