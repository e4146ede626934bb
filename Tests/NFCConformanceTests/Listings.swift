import Foundation

/// Proxmark3 `trace list` tables written here, in the client's layout (notes/proxmark3-interop.md
/// §2.6), for what ../shared has no sample of: an iClass sniff with bare SOFs (`<SOF>`, 2048
/// carrier periods) under today's shared unit line, an ISO 15693 inventory whose reader moves on
/// with EOFs (`<EOF>`, 512), and a 14443-A table with a frame printed 2.19 ms before the first
/// (its start wrapped to 4294937600).
enum Listings: CaseIterable {
    case iClassSniff, iso15693Inventory, wrappedStart

    static var all: [Listings] { allCases }

    /// The listing as a file of its own, written once per test process.
    static func path(_ listing: Listings) -> String {
        let path = folder + "/\(listing).txt"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: Data(listing.text.utf8))
        }
        return path
    }

    static let folder: String = {
        let path = NSTemporaryDirectory() + "nfctrace-listings-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static let header = """
        [=] start = start of start frame. end = end of frame. src = source of transfer.
        [=] %@ - all times are in carrier periods (1/13.56MHz)

              Start |        End | Src | Data (! denotes parity error)                                           | CRC | Annotation
        ------------+------------+-----+-------------------------------------------------------------------------+-----+--------------------

        """

    var text: String {
        switch self {
        case .iClassSniff:
            return "[+] Recorded activity ( 190 bytes )\n" + Self.header.replacingOccurrences(of: "%@", with: "ISO15693 / iCLASS") + """
                          0 |       5600 | Rdr |0A                                                                      |     | ACTALL
                       6624 |       8672 | Tag | <SOF>                                                                  |     | 
                      12797 |      18429 | Rdr |0C                                                                      |     | IDENTIFY
                      20608 |      63104 | Tag |08  24  8E  00  01  40  02  5C  52  DE                                  |  ok | 
                      69885 |     108285 | Rdr |81  08  24  8E  00  01  40  02  5C                                      |     | SELECT
                     110456 |     152952 | Tag |42  20  71  04  08  00  12  E0  5F  37                                  |  ok | 
                     159733 |     169429 | Rdr |88  02                                                                  |     | READCHECK[Kd](2)
                     171625 |     205929 | Tag |FE  FF  FF  FF  FF  FF  FF  FF                                          |     | 
                     212712 |     251112 | Rdr |05  00  00  00  00  5C  B1  3E  86                                      |     | CHECK
                     253284 |     271204 | Tag |8A  41  2F  D7                                                          |     | 
                     277990 |     295878 | Rdr |0C  01  FA  22                                                          |  ok | READ(1)
                     298072 |     340568 | Tag |12  FF  FF  FF  7F  1F  FF  3C  8C  87                                  |  ok | 
                     350000 |     352048 | Tag | <SOF>                                                                  |     | 

                """
        case .iso15693Inventory:
            return "[+] Recorded activity ( 96 bytes )\n" + Self.header.replacingOccurrences(of: "%@", with: "ISO15693 / iCLASS") + """
                          0 |      22016 | Rdr |06  01  00  CD  09                                                      |  ok | INVENTORY
                      26368 |      77056 | Tag |00  00  81  DC  D0  49  08  01  04  E0  82  86                          |  ok | 
                      94208 |      94720 | Rdr | <EOF>                                                                  |     | 
                     103424 |     103936 | Rdr | <EOF>                                                                  |     | 
                     112640 |     167936 | Rdr |22  20  81  DC  D0  49  08  01  04  E0  03  62  80                      |  ok | READBLOCK(3)
                     172288 |     202496 | Tag |00  00  11  22  33  A5  03                                              |  ok | 

                """
        case .wrappedStart:
            return "[+] Recorded activity ( 77 bytes )\n" + Self.header.replacingOccurrences(of: "%@", with: "ISO14443A") + """
                          0 |       1056 | Rdr |26(7)                                                                   |     | REQA
                 4294937600 | 4294938656 | Rdr |52(7)                                                                   |     | WUPA
                       2228 |       4596 | Tag |44  00                                                                  |     | 
                     419818 |     422282 | Rdr |93  20                                                                  |     | ANTICOLL
                     423454 |     429278 | Tag |88  04  A8  1D  39                                                      |     | 
                     839624 |     850152 | Rdr |93  70  88  04  A8  1D  39  BB  3B                                      |  ok | SELECT_UID
                     851324 |     854844 | Tag |04  DA  17                                                              |  ok | 

                """
        }
    }
}
