// The message catalog of the tgsim command (messages.cpp): one entry per message, English and
// Japanese side by side. Read it through tr()/trf() (i18n.hpp).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace tgsim::cli {

struct Message {
  std::string_view key;
  std::string en, ja;
};
const std::vector<Message>& messages();
const std::vector<Message>& picture_messages();  // messages_pictures.cpp; messages() holds them too
const std::vector<Message>& error_messages();    // messages_errors.cpp; messages() holds them too
const std::vector<Message>& list_messages();     // messages_list.cpp; messages() holds them too
const std::vector<Message>& try_messages();      // messages_try.cpp; messages() holds them too
const std::vector<Message>& launch_error_messages();  // messages_errors.cpp; messages() holds them too
const std::vector<Message>& help_messages();     // messages_help.cpp; messages() holds them too
const std::vector<Message>& note_messages();     // messages_notes.cpp; messages() holds them too

}  // namespace tgsim::cli
