import Foundation
import NFCTestKit

/// How the app makes its reader session. On the phone: `CoreNFCTagReaderSession.init`
/// (NFCTestKit's adapter over Core NFC's `NFCTagReaderSession`); in tests: a
/// `SimulatedTagReaderSession` with a tag in its field.
public typealias SessionFactory = (PollingOption, NFCTagReaderSessionDelegate) -> NFCTagReaderSession?

/// What the app reports when a read does not work out.
public enum ReaderFailure: Error, Equatable {
    /// PWD_AUTH answered with a NAK.
    case wrongPassword
    /// The tag left the field during the read.
    case tagLost
    /// No tag the app can read was found before the session ended (timeout, cancel).
    case noTag(code: Int)
    /// A tag of another kind than this flow reads.
    case wrongTag
    /// A FeliCa command answered with status flags other than 00 00.
    case statusFlags(Int, Int)
    /// An ISO 15693 command answered with an error code.
    case iso15693Error(Int)
    /// The tag holds no NDEF capability container.
    case notFormatted
    /// The NDEF data on the tag is malformed or cut short.
    case malformedNDEF(String)
    /// Another Core NFC error.
    case reader(code: Int)

    /// The app's reading of a Core NFC error.
    public init(_ error: Error) {
        if let failure = error as? ReaderFailure { self = failure; return }
        guard let e = error as? NFCReaderError else { self = .reader(code: -1); return }
        switch e.code {
        case .readerTransceiveErrorTagConnectionLost: self = .tagLost
        case .readerSessionInvalidationErrorSessionTimeout, .readerSessionInvalidationErrorUserCanceled: self = .noTag(code: e.code.rawValue)
        case .readerTransceiveErrorTagResponseError:
            if let code = e.iso15693ErrorCode { self = .iso15693Error(code) } else { self = .reader(code: e.code.rawValue) }
        default: self = .reader(code: e.code.rawValue)
        }
    }
}

/// The reader class every flow uses, as an iOS app writes it: begin a session, connect to the
/// first tag detected, run the flow, invalidate with a message, report once the session ended.
public final class TagReader<Output>: NFCTagReaderSessionDelegate {
    let pollingOption: PollingOption
    let makeSession: SessionFactory
    let flow: (NFCTag) async throws -> Output
    private var session: NFCTagReaderSession?
    private var outcome: Result<Output, Error>?
    private var continuation: CheckedContinuation<Output, Error>?
    private let lock = NSLock()

    public init(pollingOption: PollingOption, makeSession: @escaping SessionFactory, flow: @escaping (NFCTag) async throws -> Output) {
        self.pollingOption = pollingOption
        self.makeSession = makeSession
        self.flow = flow
    }

    /// Runs one session to its end.
    public func read() async throws -> Output {
        try await withCheckedThrowingContinuation { c in
            lock.lock()
            continuation = c
            lock.unlock()
            guard let s = makeSession(pollingOption, self) else {
                finish(.failure(ReaderFailure.reader(code: NFCReaderError.Code.readerErrorUnsupportedFeature.rawValue)))
                return
            }
            session = s
            s.alertMessage = "Hold your iPhone near the tag."
            s.begin()
        }
    }

    private func finish(_ result: Result<Output, Error>) {
        lock.lock()
        let c = continuation
        continuation = nil
        lock.unlock()
        c?.resume(with: result.mapError { ReaderFailure($0) as Error })
    }

    public func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

    public func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        guard let tag = tags.first else { return }
        Task {
            do {
                try await session.connect(to: tag)
                let value = try await flow(tag)
                lock.lock(); outcome = .success(value); lock.unlock()
                session.alertMessage = "Done."
                session.invalidate()
            } catch {
                lock.lock(); outcome = .failure(error); lock.unlock()
                session.invalidate(errorMessage: "Reading failed.")
            }
        }
    }

    /// The session is over: report what the flow got, or why there was nothing to read.
    public func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
        lock.lock()
        let result = outcome ?? .failure(error)
        lock.unlock()
        finish(result)
    }
}
