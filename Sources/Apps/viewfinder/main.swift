import Foundation

exit(ViewfinderTool.run(Array(CommandLine.arguments.dropFirst())))
