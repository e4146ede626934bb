#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts POSIX threads for the few places that need one of their own (the dissect pipeline's
/// renderer, the signal thread, the emulator's log writer): plain pthreads, because those
/// places must run whatever the rest of the process is doing, without a runtime's scheduler.
public enum POSIXThread {
    /// Starts a thread running `body`; nil when the system refused one. Join it or `detach` it.
    public static func start(_ body: @escaping () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var t: pthread_t? = nil
        #else
        var t = pthread_t()
        #endif
        let started = pthread_create(&t, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return t
    }

    /// Starts a thread that nobody joins (it lives as long as the process).
    public static func detach(_ body: @escaping () -> Void) {
        if let t = start(body) { pthread_detach(t) }
    }

    /// The body of a thread, kept alive by the thread until it returns.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
