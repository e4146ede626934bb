import Testing
import NFCCore
@testable import NFCDissect

@Test func scratch() throws {
    let article = TagMemoryImage(bytes: Hex.parse("E1 40 30 01 03 10 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D FE 00")!)
    print(FieldTreeText.render(TagMemoryDescriber.describe(Type5Memory.decode(article), image: article)))
    let t2 = try Type2Memory.image(model: .ntag213, message: NDEFMessage([.uri("https://example.com")]).encode())
    let img = TagMemoryImage(bytes: t2)
    print(FieldTreeText.render(TagMemoryDescriber.describe(Type2Memory.decode(img), image: img)))
    let sp = try NDEFMessage([.smartPoster(uri: "https://example.com", titles: [NDEFText("Ex")], action: .exec), .androidApplication("com.example")]).encode()
    print(FieldTreeText.render(NDEFDescriber.describe(NDEFMessage.decode(sp))))
}
