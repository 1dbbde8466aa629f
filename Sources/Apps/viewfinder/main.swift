import Foundation
import ViewfinderCore

Localization.start()

exit(ViewfinderTool.run(Array(CommandLine.arguments.dropFirst())))
